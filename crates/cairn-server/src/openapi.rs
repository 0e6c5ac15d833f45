//! The OpenAPI 3.1 description of the JSON API, served at `/api/openapi.json`. A test
//! in tests/router.rs sends a request to every path and method listed here and checks
//! that each one is a route.

use serde_json::{Value, json};

fn param(name: &str, description: &str, schema: Value) -> Value {
    json!({ "name": name, "in": "query", "required": false, "description": description, "schema": schema })
}

/// A filter that may be repeated (`agency=AFP&agency=Reuters`): its values are OR-ed.
fn repeated(name: &str, description: &str) -> Value {
    json!({
        "name": name, "in": "query", "required": false, "description": description,
        "schema": { "type": "array", "items": { "type": "string" } },
        "style": "form", "explode": true
    })
}

fn search_params() -> Vec<Value> {
    let s = json!({ "type": "string" });
    vec![
        param(
            "q",
            "Full-text query: words, \"phrases\", AND/OR, -exclusions, (groups) nested at most 32 deep, and word* for every word starting with it (alep* finds Aleppo); empty matches everything",
            s.clone(),
        ),
        repeated(
            "agency",
            "Agency or distributor; repeat the parameter (or separate by commas) for alternatives",
        ),
        repeated(
            "photographer",
            "Photographer; repeat the parameter (or separate by commas) for alternatives",
        ),
        repeated(
            "place",
            "Place name or gazetteer id: captions located in it or inside it; repeat (or separate by commas) for alternatives",
        ),
        repeated(
            "country",
            "ISO 3166-1 alpha-2 code of the location; repeat (or separate by commas) for alternatives",
        ),
        repeated(
            "event",
            "ACLED sub-event type; repeat (or separate by commas) for alternatives",
        ),
        repeated(
            "lang",
            "Language of the caption, ISO 639-1 (en, fr, es, de, ar); repeat (or separate by commas) for alternatives",
        ),
        param(
            "from",
            "Earliest date, YYYY, YYYY-MM or YYYY-MM-DD (the caption's whole date must lie on or after it)",
            s.clone(),
        ),
        param("to", "Latest date, same forms", s.clone()),
        param(
            "killed_min",
            "At least this many killed",
            json!({ "type": "integer", "minimum": 0 }),
        ),
        param("bbox", "west,south,east,north in degrees", s.clone()),
        repeated(
            "source",
            "A source uri prefix, or a source id; repeat for alternatives (uris may hold commas, so no comma splitting)",
        ),
        repeated(
            "review",
            "Review mark: verified, disputed, corrected, needs_review (nobody verified it, and its location is a guess, its record has warnings, its texts disagree, or it is disputed), or one reason: low_confidence, warnings, conflict, open_dispute (disputed and not verified); repeat (or separate by commas) for alternatives. Counted as the review facet",
        ),
        param(
            "sort",
            "relevance (default), date (oldest first), -date or date-desc (newest first)",
            json!({ "type": "string", "enum": cairn_store::Sort::SPELLINGS }),
        ),
    ]
}

fn error_response(description: &str) -> Value {
    json!({ "description": description, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } })
}

fn ok_json(description: &str) -> Value {
    json!({ "description": description, "content": { "application/json": { "schema": { "type": "object" } } } })
}

/// The OpenAPI document.
// Stays long: it is one data table (the API's paths and schemas), read top to bottom.
pub fn openapi() -> Value {
    let mut search = search_params();
    search.extend([
        param(
            "facets",
            "1 to count facets (agency, photographer, country, event_type, year, place)",
            json!({ "type": "string", "enum": ["0", "1", "true", "false"] }),
        ),
        param(
            "histogram",
            "1 for matches per day, month or year",
            json!({ "type": "string", "enum": ["0", "1", "true", "false"] }),
        ),
        param(
            "zoom",
            "Map zoom (0 = 16 cells across the world) at which to cluster located matches",
            json!({ "type": "integer", "minimum": 0, "maximum": 20 }),
        ),
        param(
            "limit",
            "Hits per page (at most 200)",
            json!({ "type": "integer", "minimum": 0, "maximum": 200, "default": 20 }),
        ),
        param(
            "offset",
            "Hits to skip (offset + limit at most 10000)",
            json!({ "type": "integer", "minimum": 0, "default": 0 }),
        ),
    ]);
    let mut split = search_params();
    split.push(param(
        "split",
        "The facet the timeline is split by: one series for each of its 5 most frequent values in the search, the rest as other (default agency)",
        json!({ "type": "string", "enum": crate::split::FIELDS, "default": "agency" }),
    ));
    let mut export = search_params();
    export.push(param(
        "format",
        "jsonl (default), csv, geojson, acled-csv, or gold (the verified and corrected captions as gold lines)",
        json!({ "type": "string", "enum": ["jsonl", "csv", "geojson", "acled-csv", "gold"] }),
    ));
    let id =
        json!([{ "name": "id", "in": "path", "required": true, "schema": { "type": "integer" } }]);
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "cairn",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "A deduplicated, searchable archive of news photo captions. Every error is {\"error\": {\"code\", \"message\"}}, including a method a path does not take (405), a path and query over 8 KiB (414), a request head larger than the server reads (431), and, from a server listening on loopback, a request whose Host is neither a loopback name (localhost, 127.x.x.x, [::1]) nor a name allowed with --allowed-host (403, code host_not_allowed)."
        },
        "paths": {
            "/api/search": { "get": {
                "summary": "Search captions: hits, total, and on request facets, a date histogram and a map grid, in one call",
                "parameters": search,
                "responses": { "200": ok_json("Results"), "400": error_response("Bad parameters"), "503": error_response("The query took too long") }
            }},
            "/api/histogram": { "get": {
                "summary": "A search's date histogram split by agency, country or photographer: the periods, a count per period for each of the most frequent values, and the rest as other",
                "parameters": split,
                "responses": { "200": ok_json("The split timeline"), "400": error_response("Bad parameters"), "503": error_response("The query took too long") }
            }},
            "/api/export": { "get": {
                "summary": "Every caption a search matches (at most 100000), streamed in an export format",
                "parameters": export,
                "responses": {
                    "200": { "description": "The export", "content": {
                        "application/x-ndjson": {}, "text/csv": {}, "application/geo+json": {} } },
                    "400": error_response("Bad parameters or format"),
                    "413": error_response("Too many matches for one export"),
                    "503": error_response("No export turn came free, or the query took too long")
                }
            }},
            "/api/captions/{id}": {
                "get": {
                    "summary": "A caption with its record (as extracted, with people's corrections over it), its review (version, verified, disputed, corrected fields), every variant and every occurrence with its source, and its translations (captions of the same photograph in other languages: id, lang, text). The ETag header is the caption's version, for If-Match",
                    "parameters": id,
                    "responses": { "200": ok_json("The caption"), "400": error_response("Not an id"), "404": error_response("No such caption") }
                },
                "patch": {
                    "summary": "Correct a caption (editors and admins): a JSON object of record fields to change (credit, date, location, places, casualties, persons, organizations, event_types, sources, lang, or one member of one as \"casualties.killed\"), with verified (true/false), disputed (true/false) and note. Every change is kept as a revision. Made with the session cookie, it needs the session's CSRF token in X-CSRF-Token",
                    "parameters": [ id[0].clone(), { "name": "If-Match", "in": "header", "required": true, "description": "The ETag GET gave (\"v3\")", "schema": { "type": "string" } } ],
                    "security": [ { "bearer": [] }, { "session": [] } ],
                    "requestBody": { "required": true, "content": { "application/json": { "schema": { "type": "object" } } } },
                    "responses": {
                        "200": ok_json("The caption as saved, with its new ETag"),
                        "400": error_response("A field that cannot be corrected, or a value that does not fit the record"),
                        "401": error_response("Not logged in"),
                        "403": error_response("A reader, or a cookie write without its CSRF token"),
                        "404": error_response("No such caption"),
                        "412": ok_json("Another save came first: nothing was saved; {error, current} with the current caption and its ETag"),
                        "428": error_response("No If-Match")
                    }
                }
            },
            "/api/captions/{id}/history": { "get": {
                "summary": "A caption's revisions, oldest first: who changed which field from what to what, when and why",
                "parameters": id,
                "responses": { "200": ok_json("Revisions"), "400": error_response("Not an id"), "404": error_response("No such caption") }
            }},
            "/api/captions/{id}/split": { "post": {
                "summary": "Split a caption (editors and admins): the variants listed (ids, as GET /api/captions/{id} gives them) become a caption of their own; at least one stays. Kept in both captions' histories; later ingests keep them apart. Made with the session cookie, it needs the session's CSRF token in X-CSRF-Token",
                "parameters": [ id[0].clone(), { "name": "If-Match", "in": "header", "required": false, "description": "The ETag GET gave (\"v3\"); checked when sent", "schema": { "type": "string" } } ],
                "security": [ { "bearer": [] }, { "session": [] } ],
                "requestBody": { "required": true, "content": { "application/json": { "schema": {
                    "type": "object", "required": ["variants"],
                    "properties": { "variants": { "type": "array", "items": { "type": "integer" } }, "note": { "type": "string" } } } } } },
                "responses": {
                    "200": ok_json("{caption, other, review}: the caption kept, the new one, the kept one's review (its ETag in the header)"),
                    "400": error_response("A variant that is not the caption's, none or all of them"),
                    "401": error_response("Not logged in"),
                    "403": error_response("A reader, or a cookie write without its CSRF token"),
                    "404": error_response("No such caption"),
                    "412": ok_json("Another change came first: nothing was changed")
                }
            }},
            "/api/captions/{id}/merge": { "post": {
                "summary": "Merge caption `other` into this one (editors and admins): its variants join this caption, whose record and corrections stay, and `other` is removed. Kept in both captions' histories; later ingests keep them together. Made with the session cookie, it needs the session's CSRF token in X-CSRF-Token",
                "parameters": [ id[0].clone(), { "name": "If-Match", "in": "header", "required": false, "description": "The ETag GET gave (\"v3\"); checked when sent", "schema": { "type": "string" } } ],
                "security": [ { "bearer": [] }, { "session": [] } ],
                "requestBody": { "required": true, "content": { "application/json": { "schema": {
                    "type": "object", "required": ["other"],
                    "properties": { "other": { "type": "integer" }, "note": { "type": "string" } } } } } },
                "responses": {
                    "200": ok_json("{caption, other, review}: the caption kept, the one merged away, the kept one's review"),
                    "400": error_response("A caption merged into itself"),
                    "401": error_response("Not logged in"),
                    "403": error_response("A reader, or a cookie write without its CSRF token"),
                    "404": error_response("No such caption"),
                    "412": ok_json("Another change came first: nothing was changed")
                }
            }},
            "/api/login": { "post": {
                "summary": "Log in: sets the session cookie (HttpOnly, SameSite=Strict, Secure off loopback) and answers {user, role, csrf}; the csrf token goes in X-CSRF-Token of writes made with the cookie. Failed logins are limited per name",
                "requestBody": { "required": true, "content": { "application/json": { "schema": {
                    "type": "object", "required": ["name", "password"],
                    "properties": { "name": { "type": "string" }, "password": { "type": "string" } } } } } },
                "responses": { "200": ok_json("Logged in"), "400": error_response("Not a login"), "401": error_response("Wrong name or password"), "429": error_response("Too many failed logins") }
            }},
            "/api/logout": { "post": {
                "summary": "End the session of the cookie sent (with its CSRF token) and clear the cookie",
                "responses": { "200": ok_json("Logged out"), "403": error_response("No CSRF token") }
            }},
            "/api/users": { "get": {
                "summary": "The accounts: name, role, when made (admins)",
                "security": [ { "bearer": [] }, { "session": [] } ],
                "responses": { "200": ok_json("Accounts"), "401": error_response("Not logged in"), "403": error_response("Not an admin") }
            }},
            "/api/sources/{id}": { "get": {
                "summary": "A source's metadata, its text and its captions' spans",
                "parameters": id,
                "responses": { "200": ok_json("The source"), "400": error_response("Not an id"), "404": error_response("No such source") }
            }},
            "/api/places": { "get": {
                "summary": "What the gazetteer resolves a name to",
                "parameters": [ { "name": "q", "in": "query", "required": true, "schema": { "type": "string" } } ],
                "responses": { "200": ok_json("Matches, the one filters use marked best"), "400": error_response("Missing q") }
            }},
            "/api/stats": { "get": {
                "summary": "Counts of what the archive holds",
                "responses": { "200": ok_json("Counts") }
            }},
            "/api/ingest": { "post": {
                "summary": "Store an upload as `cairn ingest` stores a file: a text page (captions separated by blank lines), an HTML page, a WARC file (each page a source under its own URI) or JSON Lines (each line a source), possibly gzip- or zstd-compressed, read by its Content-Type when it names one of these, else by its content. The token, the Content-Length and the type are checked before the body is read. Only when the server runs with --allow-ingest, for admins (a bearer token, or the session cookie with its CSRF token)",
                "security": [ { "bearer": [] } ],
                "parameters": [ { "name": "uri", "in": "query", "required": false, "description": "The URI of a page, and of the lines of JSON Lines that name none (with #line=N); by default urn:cairn:post: and the body's sha256", "schema": { "type": "string" } } ],
                "requestBody": { "required": true, "content": {
                    "text/plain": { "schema": { "type": "string" } },
                    "text/html": { "schema": { "type": "string" } },
                    "application/warc": { "schema": { "type": "string", "format": "binary" } },
                    "application/jsonl": { "schema": { "type": "string" } },
                    "application/octet-stream": { "schema": { "type": "string", "format": "binary" } } } },
                "responses": {
                    "200": ok_json("What the writes added, with the parts that could not be read (rejected) and the parts skipped (notices)"),
                    "400": error_response("Nothing readable in the body, or a body that is not what its Content-Type says"),
                    "401": error_response("Missing or wrong token"),
                    "403": error_response("Not an admin"),
                    "404": error_response("Ingest is not enabled"),
                    "411": error_response("No Content-Length"),
                    "413": error_response("Body over 16 MiB"),
                    "415": error_response("A Content-Type cairn has no reader for"),
                    "503": error_response("As many uploads under way as the server takes at once, or another writer kept the archive for longer than the server's time limit (code busy; try again after the Retry-After seconds)")
                }
            }},
            "/api/openapi.json": { "get": {
                "summary": "This document",
                "responses": { "200": ok_json("OpenAPI 3.1") }
            }},
            "/healthz": { "get": {
                "summary": "Liveness",
                "responses": { "200": ok_json("{\"status\": \"ok\"}") }
            }}
        },
        "components": {
            "securitySchemes": {
                "bearer": { "type": "http", "scheme": "bearer" },
                "session": { "type": "apiKey", "in": "cookie", "name": "cairn_session" }
            },
            "schemas": {
                "Error": {
                    "type": "object",
                    "required": ["error"],
                    "properties": { "error": {
                        "type": "object",
                        "required": ["code", "message"],
                        "properties": {
                            "code": { "type": "string", "enum": ["bad_request", "not_found", "unauthorized", "method_not_allowed", "uri_too_long", "headers_too_large", "host_not_allowed", "forbidden", "too_many_requests", "precondition_required", "length_required", "unsupported_type", "timeout", "busy", "too_large", "internal"] },
                            "message": { "type": "string" }
                        }
                    }}
                }
            }
        }
    })
}
