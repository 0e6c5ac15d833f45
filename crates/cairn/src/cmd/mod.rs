//! One module per subcommand, each with its clap arguments beside the code that runs
//! it, and the few pieces several subcommands share.

pub mod accuracy;
pub mod audit;
pub mod backup;
pub mod check;
pub mod compact;
pub mod correct;
pub mod dedup;
pub mod demo;
pub mod export;
pub mod extract;
pub mod filters;
pub mod gazetteer;
pub mod generate;
pub mod import;
pub mod incidents;
pub mod ingest;
pub mod places;
pub mod progress;
pub mod reextract;
pub mod regroup;
pub mod reindex;
pub mod search;
pub mod serve;
pub mod show;
pub mod stats;
pub mod users;
pub mod wait;

/// Exit code when some inputs were ingested and others were rejected.
pub const EXIT_PARTIAL: u8 = 3;
