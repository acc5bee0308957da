/* rejlab course site: the explorers' controls, and room for wide figures.
 *
 * An explorer block (tools/site_explorers.py) holds labelled controls, a
 * readout, a message line, the current frame and, as inline JSON, every
 * setting's frame number, readout, message and text alternative. Moving a
 * control shows the frame the Python explorer drew for that setting; every
 * frame of an explorer is fetched and decoded once, as soon as the explorer
 * comes near the screen or a control gets focus, so a move only swaps an
 * image the browser already holds. Nothing is loaded from another host.
 */
(function () {
  "use strict";

  function setUp(root) {
    var dataNode = root.querySelector("script.rejlab-explorer-data");
    if (!dataNode) { return; }
    var data = JSON.parse(dataNode.textContent);
    var img = root.querySelector("img.rejlab-explorer-frame");
    var link = root.querySelector("a.rejlab-explorer-full");
    var readout = root.querySelector(".rejlab-explorer-readout");
    var message = root.querySelector(".rejlab-explorer-message");
    var inputs = data.controls.map(function (_, i) {
      return root.querySelector('[data-control="' + i + '"]');
    });
    var held = {};
    var loading = false;

    function url(frame) { return data.base + frame + "." + data.format; }

    function preload() {
      if (loading) { return; }
      loading = true;
      var seen = {}, waiting = [];
      data.frames.forEach(function (frame) {
        if (seen[frame]) { return; }
        seen[frame] = true;
        var im = new Image();
        im.src = url(frame);
        waiting.push(im.decode ? im.decode().catch(function () {}) : null);
        held[frame] = im;   // kept, so the decoded picture stays in memory
      });
      Promise.all(waiting).then(function () { root.dataset.framesReady = "true"; });
    }

    function setting() {
      var k = 0, stride = 1;
      inputs.forEach(function (input, i) {
        k += stride * Number(input.value);
        stride *= data.controls[i].n;
      });
      return k;
    }

    function show() {
      var k = setting();
      var src = url(data.frames[k]);
      if (img.getAttribute("src") !== src) {
        img.setAttribute("src", src);
        link.setAttribute("href", src);
      }
      img.setAttribute("alt", data.alts[k]);
      readout.innerHTML = data.readouts[k];
      message.textContent = data.messages[k] ? "\u26a0 " + data.messages[k] : "";
      inputs.forEach(function (input, i) {
        if (input.type === "range") {
          var text = data.controls[i].labels[Number(input.value)];
          input.setAttribute("aria-valuetext", text);
          var out = root.querySelector("#" + input.id + "-value");
          if (out) { out.textContent = text; }
        }
      });
    }

    inputs.forEach(function (input) {
      input.disabled = false;
      input.addEventListener("input", show);
      input.addEventListener("change", show);
      input.addEventListener("focus", preload);
    });
    if ("IntersectionObserver" in window) {
      var watch = new IntersectionObserver(function (entries) {
        if (entries.some(function (e) { return e.isIntersecting; })) {
          preload();
          watch.disconnect();
        }
      }, { rootMargin: "600px" });
      watch.observe(root);
    } else {
      preload();
    }
    show();
  }

  /* A wide figure may use the empty margin right of the text column (on a
   * 1280-pixel window the page has one), never more than its own size. */
  function room() {
    var right = document.documentElement.clientWidth - 16;
    document.querySelectorAll(".rejlab-explorer").forEach(function (box) {
      var left = box.getBoundingClientRect().left;
      box.style.maxWidth = Math.max(0, Math.floor(right - left)) + "px";
    });
    document.querySelectorAll(".cell_output .rejlab-figure-link img").forEach(function (img) {
      if (img.closest(".rejlab-explorer")) { return; }
      var left = img.parentElement.getBoundingClientRect().left;
      var natural = img.naturalWidth || 0;
      if (!natural) { return; }
      img.style.maxWidth = Math.min(natural, Math.max(0, Math.floor(right - left))) + "px";
    });
  }

  /* A code block wider than the column scrolls sideways: keyboard users reach it with Tab
   * (WCAG 2.1.1; only the blocks that do scroll become tab stops). */
  function scrollable() {
    document.querySelectorAll("div.highlight > pre").forEach(function (pre) {
      if (pre.scrollWidth > pre.clientWidth + 1) {
        pre.setAttribute("tabindex", "0");
      } else {
        pre.removeAttribute("tabindex");
      }
    });
  }

  function ready() {
    document.querySelectorAll(".rejlab-explorer").forEach(setUp);
    room();
    scrollable();
    document.querySelectorAll(".rejlab-figure-link img").forEach(function (img) {
      if (!img.complete) { img.addEventListener("load", room, { once: true }); }
    });
    window.addEventListener("resize", function () { room(); scrollable(); });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", ready);
  } else {
    ready();
  }
})();
