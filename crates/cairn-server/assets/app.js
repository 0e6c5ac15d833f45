// cairn's page works without this script: every facet, bar and map point is a link.
// The script adds two things: dragging across the timeline selects a date range, and
// "/" moves the focus to the search box.
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

  document.addEventListener("DOMContentLoaded", () => {
    for (const svg of document.querySelectorAll("svg.bars")) brushTimeline(svg);
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
