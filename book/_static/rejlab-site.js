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
      var seen = {};
      data.frames.forEach(function (frame) {
        if (seen[frame]) { return; }
        seen[frame] = true;
        var im = new Image();
        im.src = url(frame);
        if (im.decode) { im.decode().catch(function () {}); }
        held[frame] = im;   // kept, so the decoded picture stays in memory
      });
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

  function ready() {
    document.querySelectorAll(".rejlab-explorer").forEach(setUp);
    room();
    document.querySelectorAll(".rejlab-figure-link img").forEach(function (img) {
      if (!img.complete) { img.addEventListener("load", room, { once: true }); }
    });
    window.addEventListener("resize", room);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", ready);
  } else {
    ready();
  }
})();
