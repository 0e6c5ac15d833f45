// cairn's page works without this script: every facet, bar and map point is a link.
// The script adds: dragging across the timeline selects a date range; zoom and pan on
// the map; a box that filters each facet's full list; a button that copies the
// search's link; "/" moves the focus to the search box; Space ticks a facet value; and
// forms leave their empty fields out of the link.
"use strict";

(function () {
  function go(changes) {
    const url = new URL(window.location.href);
    url.searchParams.delete("offset");
    for (const [k, v] of Object.entries(changes)) {
      if (v) url.searchParams.set(k, v);
      else url.searchParams.delete(k);
    }
    window.location.assign(url.pathname + url.search);
  }

  function brushTimeline(svg) {
    const bars = Array.from(svg.querySelectorAll("a[data-from]"));
    if (bars.length < 2) return;
    const box = svg.viewBox.baseVal;
    const ns = "http://www.w3.org/2000/svg";
    const sel = document.createElementNS(ns, "rect");
    sel.setAttribute("class", "brush");
    sel.setAttribute("y", "0");
    sel.setAttribute("height", String(box.height));
    sel.setAttribute("width", "0");
    svg.appendChild(sel);
    const index = (ev) => {
      const r = svg.getBoundingClientRect();
      const x = ((ev.clientX - r.left) / r.width) * bars.length;
      return Math.max(0, Math.min(bars.length - 1, Math.floor(x)));
    };
    let start = null;
    let moved = false;
    const draw = (a, b) => {
      const lo = Math.min(a, b), hi = Math.max(a, b);
      const w = box.width / bars.length;
      sel.setAttribute("x", String(lo * w));
      sel.setAttribute("width", String((hi - lo + 1) * w));
    };
    svg.addEventListener("pointerdown", (ev) => {
      if (ev.button !== 0) return;
      start = index(ev);
      moved = false;
      svg.setPointerCapture(ev.pointerId);
      ev.preventDefault();
    });
    svg.addEventListener("pointermove", (ev) => {
      if (start === null) return;
      const i = index(ev);
      if (i !== start) moved = true;
      draw(start, i);
    });
    svg.addEventListener("pointerup", (ev) => {
      if (start === null) return;
      const i = index(ev);
      const lo = Math.min(start, i), hi = Math.max(start, i);
      start = null;
      if (!moved) {
        // A click on one bar: the bar's own link.
        window.location.assign(bars[i].getAttribute("href"));
        return;
      }
      go({ from: bars[lo].dataset.from, to: bars[hi].dataset.to });
    });
    // The links still work from the keyboard; pointer clicks are handled above.
    for (const a of bars) {
      a.addEventListener("click", (ev) => {
        if (ev.detail > 0) ev.preventDefault();
      });
    }
  }


  // The map's view as [x, y, width, height] in its SVG units (degrees).
  function zoomMap(svg) {
    const tools = svg.parentElement.querySelector(".map-tools");
    const start = svg.dataset.view.split(" ").map(Number);
    let view = start.slice();
    const placesBelow = Number(svg.dataset.placesBelow || 30);
    const circles = Array.from(svg.querySelectorAll("circle"));
    for (const c of circles) c.dataset.r0 = c.getAttribute("r");
    const labels = svg.querySelector("g.labels");
    const font0 = labels ? Number(labels.getAttribute("font-size")) : 0;
    const scale = svg.querySelector("g.scale");
    const set = (v) => {
      const w = Math.min(Math.max(v[2], 0.05), 360);
      const h = w * (start[3] / start[2]);
      view = [v[0] + (v[2] - w) / 2, v[1] + (v[3] - h) / 2, w, h];
      svg.setAttribute("viewBox", view.map((x) => x.toFixed(4)).join(" "));
      const k = w / start[2];
      for (const c of circles) c.setAttribute("r", String(Number(c.dataset.r0) * k));
      if (labels) {
        labels.setAttribute("font-size", String(font0 * k));
        for (const t of labels.querySelectorAll("text.place")) {
          t.setAttribute("visibility", w < placesBelow ? "visible" : "hidden");
        }
      }
      if (scale) drawScale(scale, view, font0 * k);
    };
    const zoomAt = (f, cx, cy) => {
      const w = view[2] * f, h = view[3] * f;
      set([cx - (cx - view[0]) * f, cy - (cy - view[1]) * f, w, h]);
    };
    const centre = () => [view[0] + view[2] / 2, view[1] + view[3] / 2];
    if (tools) {
      tools.hidden = false;
      tools.addEventListener("click", (ev) => {
        const b = ev.target.closest("button");
        if (!b) return;
        if (b.dataset.zoom === "in") zoomAt(0.5, ...centre());
        else if (b.dataset.zoom === "out") zoomAt(2, ...centre());
        else set(start.slice());
      });
    }
    const toMap = (ev) => {
      const r = svg.getBoundingClientRect();
      return [view[0] + ((ev.clientX - r.left) / r.width) * view[2],
              view[1] + ((ev.clientY - r.top) / r.height) * view[3]];
    };
    svg.addEventListener("wheel", (ev) => {
      ev.preventDefault();
      zoomAt(ev.deltaY < 0 ? 0.8 : 1.25, ...toMap(ev));
    }, { passive: false });
    // From the keyboard: arrows pan by a fifth of the view, + and - zoom.
    svg.setAttribute("tabindex", "0");
    svg.setAttribute("aria-label", "Map: arrow keys pan, + and - zoom");
    svg.addEventListener("keydown", (ev) => {
      if (ev.target !== svg) return;
      const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[ev.key];
      if (step) {
        set([view[0] + step[0] * view[2] / 5, view[1] + step[1] * view[3] / 5, view[2], view[3]]);
      } else if (ev.key === "+" || ev.key === "=") {
        zoomAt(0.5, ...centre());
      } else if (ev.key === "-") {
        zoomAt(2, ...centre());
      } else {
        return;
      }
      ev.preventDefault();
    });
    let drag = null;
    svg.addEventListener("pointerdown", (ev) => {
      if (ev.button !== 0) return;
      drag = { x: ev.clientX, y: ev.clientY, view: view.slice(), moved: false };
    });
    svg.addEventListener("pointermove", (ev) => {
      if (!drag) return;
      const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 5) return;
      drag.moved = true;
      const r = svg.getBoundingClientRect();
      set([drag.view[0] - (dx / r.width) * view[2], drag.view[1] - (dy / r.height) * view[3], drag.view[2], drag.view[3]]);
    });
    svg.addEventListener("pointerup", () => {
      if (drag && drag.moved) {
        // A drag is not a click on the point it ends on.
        svg.addEventListener("click", (e) => e.preventDefault(), { once: true, capture: true });
      }
      drag = null;
    });
  }

  // A round distance about a fifth of the view, at its middle latitude.
  function drawScale(g, view, font) {
    const lat = 90 - (view[1] + view[3] / 2);
    const kmPerDegree = 111.32 * Math.max(Math.cos((lat * Math.PI) / 180), 0.01);
    const want = (view[2] / 5) * kmPerDegree;
    const step = Math.pow(10, Math.floor(Math.log10(want)));
    const km = [5, 2, 1].map((m) => m * step).find((x) => x <= want) || step;
    const x = view[0] + view[2] * 0.03, y = view[1] + view[3] * 0.95;
    const line = g.querySelector("line"), text = g.querySelector("text");
    line.setAttribute("x1", x); line.setAttribute("x2", x + km / kmPerDegree);
    line.setAttribute("y1", y); line.setAttribute("y2", y);
    text.setAttribute("x", x); text.setAttribute("y", y - font * 0.5);
    text.setAttribute("font-size", font);
    text.textContent = km >= 1 ? `${Math.round(km)} km` : `${Math.round(km * 1000)} m`;
  }

  function facetFilter(details) {
    const box = details.querySelector("input.filter");
    if (!box) return;
    box.hidden = false;
    box.addEventListener("input", () => {
      const want = box.value.trim().toLowerCase();
      for (const li of details.querySelectorAll("ul.every li")) {
        li.hidden = want !== "" && !li.textContent.toLowerCase().includes(want);
      }
    });
  }

  function copyLink(button) {
    button.hidden = false;
    const label = button.textContent;
    button.addEventListener("click", async () => {
      let ok = false;
      try {
        // A browser that asks for permission and never answers falls back below.
        const late = new Promise((_, no) => setTimeout(() => no(new Error("no answer")), 1000));
        await Promise.race([navigator.clipboard.writeText(window.location.href), late]);
        ok = true;
      } catch (_) {
        const t = document.createElement("textarea");
        t.value = window.location.href;
        document.body.appendChild(t);
        t.select();
        ok = document.execCommand("copy");
        t.remove();
      }
      button.textContent = ok ? button.dataset.copied : "Copy failed: use the link";
      setTimeout(() => { button.textContent = label; }, 2500);
    });
  }

  // A form sends no empty field: an empty bound or toll is no filter, and the link
  // stays as short as the search.
  function dropEmptyFields(form) {
    form.addEventListener("submit", () => {
      for (const el of form.querySelectorAll("input[name]")) {
        if (el.name !== "q" && el.value.trim() === "") el.disabled = true;
      }
    });
    // Back to this page from the next: its fields work again.
    window.addEventListener("pageshow", () => {
      for (const el of form.querySelectorAll("input[name]")) el.disabled = false;
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    for (const f of document.querySelectorAll("form.range, form.search")) dropEmptyFields(f);
    // A facet value is a checkbox: Space ticks it, as it would a real one.
    document.addEventListener("keydown", (ev) => {
      const a = ev.target.closest && ev.target.closest("a[role=checkbox]");
      if (a && ev.key === " ") {
        ev.preventDefault();
        a.click();
      }
    });
    for (const svg of document.querySelectorAll("svg.bars")) brushTimeline(svg);
    for (const svg of document.querySelectorAll("svg.world[data-view]")) zoomMap(svg);
    for (const d of document.querySelectorAll("details.all")) facetFilter(d);
    for (const b of document.querySelectorAll("button.copy")) copyLink(b);
    document.addEventListener("keydown", (ev) => {
      const t = ev.target;
      const typing = t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement;
      if (ev.key === "/" && !typing) {
        const q = document.querySelector("form.search input[name=q]");
        if (q) {
          ev.preventDefault();
          q.focus();
          q.select();
        }
      }
    });
  });
})();
