/* rejlab course site: the explorers' controls, and room for wide figures.
 *
 * An explorer block (tools/site_explorers.py) holds labelled controls, a
 * readout, a message line, the current frame and, as inline JSON, every
 * setting's frame number, readout, message and text alternative. Moving a
 * control shows the frame the Python explorer drew for that setting; the
 * frames one move away are fetched first, then every frame of the explorer,
 * nearest first, as soon as it comes near the screen or a control gets
 * focus, so a move only swaps an image the browser already holds. A reset
 * button brings back the lesson's setting, and the setting lives in the
 * page's address. Nothing is loaded from another host.
 *
 * An explorer may have a second set of frames, drawn for a phone (its
 * figure in one column, text as large as on a wide screen): the picture's
 * <source> names the windows that show it (its media query), every move
 * sets both sets' pictures and the browser shows the one for the window;
 * only the frames of the set in view are fetched ahead.
 */
(function () {
  "use strict";

  /* Frames are fetched through one small queue per page: the frames one move away from a
   * setting first (so that a first move on a slow connection finds its picture), then the
   * rest, nearest first, two at a time, as soon as the explorer comes near the screen. */
  var queue = [], inFlight = 0, MAX_IN_FLIGHT = 2;
  function pump() {
    while (inFlight < MAX_IN_FLIGHT && queue.length) {
      var job = queue.shift();
      if (job.im) { continue; }
      inFlight += 1;
      job.im = new Image();
      job.im.src = job.src;
      var done = (function (j) {
        return function () {
          inFlight -= 1;
          j.ready = true;
          j.waiters.forEach(function (f) { f(); });
          pump();
        };
      })(job);
      (job.im.decode ? job.im.decode() : Promise.resolve()).then(done, done);
    }
  }

  function setUp(root) {
    var dataNode = root.querySelector("script.rejlab-explorer-data");
    if (!dataNode) { return; }
    var data = JSON.parse(dataNode.textContent);
    var img = root.querySelector("img.rejlab-explorer-frame");
    var link = root.querySelector("a.rejlab-explorer-full");
    var readout = root.querySelector(".rejlab-explorer-readout");
    var message = root.querySelector(".rejlab-explorer-message");
    var reset = root.querySelector(".rejlab-explorer-reset");
    var source = root.querySelector("picture > source");
    var narrowQuery = data.narrow && source && window.matchMedia ?
      window.matchMedia(source.getAttribute("media")) : null;
    var zoomed = false;
    var narrowSize = source ? [source.getAttribute("width"), source.getAttribute("height")] : null;
    var inputs = data.controls.map(function (_, i) {
      return root.querySelector('[data-control="' + i + '"]');
    });
    var defaults = inputs.map(function (input) {
      return input.tagName === "SELECT" ? input.selectedIndex : Number(input.getAttribute("value"));
    });
    var jobs = {};

    /* The picture of setting k: the wide frame, or the narrow one (a phone). */
    function wideUrl(k) { return data.base + data.frames[k] + "." + data.format; }
    function narrowUrl(k) { return data.narrow.base + data.narrow.frames[k] + "." + data.format; }
    function narrowNow() { return !!narrowQuery && narrowQuery.matches && !zoomed; }
    function url(k) { return narrowNow() ? narrowUrl(k) : wideUrl(k); }

    function job(k) {
      var src = url(k);
      if (!jobs[src]) { jobs[src] = {src: src, im: null, ready: false, waiters: []}; }
      return jobs[src];
    }

    function index() { return inputs.map(function (input) { return Number(input.value); }); }

    function settingOf(idx) {
      var k = 0, stride = 1;
      idx.forEach(function (v, i) { k += stride * v; stride *= data.controls[i].n; });
      return k;
    }

    /* The settings one move away from idx (each control one step either way), in the
     * order a reader most likely moves: the first control's next value first. */
    function neighbours(idx) {
      var out = [];
      idx.forEach(function (v, i) {
        [v + 1, v - 1].forEach(function (w) {
          if (w >= 0 && w < data.controls[i].n) {
            var next = idx.slice(); next[i] = w; out.push(settingOf(next));
          }
        });
      });
      return out;
    }

    function want(settings, front) {
      var add = [];
      settings.forEach(function (k) {
        var j = job(k);
        if (!j.im && add.indexOf(j) < 0) { add.push(j); }
      });
      queue = queue.filter(function (j) { return add.indexOf(j) < 0; });
      queue = front ? add.concat(queue) : queue.concat(add);
      pump();
      return add;
    }

    /* Every frame, nearest to the current setting first (by the number of moves). */
    var all = {}, near = false;
    function preloadAll() {
      near = true;
      var set = narrowNow() ? "narrow" : "wide";
      if (all[set]) { return; }
      all[set] = true;
      var idx = index(), order = [];
      for (var k = 0; k < data.frames.length; k++) { order.push(k); }
      function distance(k) {
        var d = 0, rest = k;
        data.controls.forEach(function (c, i) { d += Math.abs((rest % c.n) - idx[i]); rest = Math.floor(rest / c.n); });
        return d;
      }
      order.sort(function (a, b) { return distance(a) - distance(b); });
      want(order, false);
      var pending = order.map(function (k) { return job(k); });
      function check() {
        if (pending.every(function (j) { return j.ready; })) { root.dataset.framesReady = "true"; }
      }
      pending.forEach(function (j) { if (!j.ready) { j.waiters.push(check); } });
      check();
    }

    function prefetchNext() {
      var next = neighbours(index()).map(function (k) { return job(k); });
      want(neighbours(index()), true);
      root.dataset.nextReady = "false";
      function check() {
        if (next.every(function (j) { return j.ready; })) { root.dataset.nextReady = "true"; }
      }
      next.forEach(function (j) { if (!j.ready) { j.waiters.push(check); } });
      check();
    }

    /* The setting in the page's address (?<explorer id>=i.j): a reload or a shared link
     * comes back to it; the lesson's own setting leaves the address clean. */
    function fromAddress() {
      var value = new URLSearchParams(window.location.search).get(root.id);
      if (!value) { return; }
      var parts = value.split(".");
      if (parts.length !== inputs.length) { return; }
      parts.forEach(function (p, i) {
        var v = Number(p);
        if (Number.isInteger(v) && v >= 0 && v < data.controls[i].n) { inputs[i].value = String(v); }
      });
    }

    function toAddress() {
      var idx = index();
      var params = new URLSearchParams(window.location.search);
      if (idx.every(function (v, i) { return v === defaults[i]; })) {
        params.delete(root.id);
      } else {
        params.set(root.id, idx.join("."));
      }
      var query = params.toString();
      try {
        history.replaceState(history.state, "", window.location.pathname + (query ? "?" + query : "")
                             + window.location.hash);
      } catch (e) { /* a page opened from disk may refuse: the setting just is not kept */ }
    }

    function show() {
      var k = settingOf(index());
      var src = wideUrl(k);
      if (source) {   /* set first: the browser then picks among the two new pictures */
        var small = zoomed ? src : narrowUrl(k);
        if (source.getAttribute("srcset") !== small) {
          source.setAttribute("srcset", small);
          source.setAttribute("width", zoomed ? img.getAttribute("width") : narrowSize[0]);
          source.setAttribute("height", zoomed ? img.getAttribute("height") : narrowSize[1]);
        }
      }
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
      reset.disabled = index().every(function (v, i) { return v === defaults[i]; });
    }

    function moved() {
      show();
      toAddress();
      prefetchNext();
    }

    inputs.forEach(function (input) {
      input.disabled = false;
      input.addEventListener("input", moved);
      input.addEventListener("change", moved);
      input.addEventListener("focus", preloadAll);
    });
    reset.addEventListener("click", function () {
      inputs.forEach(function (input, i) {
        if (input.tagName === "SELECT") { input.selectedIndex = defaults[i]; } else { input.value = String(defaults[i]); }
      });
      moved();
      inputs[0].focus();
    });
    /* On a narrow screen a tap on the picture shows the wide picture at its own size here,
     * in a box that scrolls sideways under the controls, instead of leaving the page for
     * it; a second tap brings back the picture drawn for the phone. */
    link.addEventListener("click", function (event) {
      if (window.matchMedia("(max-width: 46em)").matches) {
        event.preventDefault();
        zoomed = root.classList.toggle("rejlab-zoomed");
        link.setAttribute("aria-expanded", zoomed ? "true" : "false");
        show();
        prefetchNext();
      }
    });
    /* A phone turned sideways (or a window made wider): the other set's pictures. */
    if (narrowQuery) {
      var changed = function () {
        show();
        prefetchNext();
        if (near) { preloadAll(); }
      };
      if (narrowQuery.addEventListener) { narrowQuery.addEventListener("change", changed); }
      else if (narrowQuery.addListener) { narrowQuery.addListener(changed); }
    }
    fromAddress();
    show();
    prefetchNext();
    if ("IntersectionObserver" in window) {
      var watch = new IntersectionObserver(function (entries) {
        if (entries.some(function (e) { return e.isIntersecting; })) {
          preloadAll();
          watch.disconnect();
        }
      }, { rootMargin: "600px" });
      watch.observe(root);
    } else {
      preloadAll();
    }
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

  /* A code block, a formula or a table wider than the column scrolls sideways: keyboard
   * users reach it with Tab (WCAG 2.1.1; only the boxes that do scroll become tab stops). */
  function scrollable() {
    document.querySelectorAll("div.highlight > pre, .math-wrapper, .table-wrapper").forEach(function (pre) {
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
    /* formulas take their width once MathJax has typeset them */
    window.addEventListener("load", function () {
      if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
        MathJax.startup.promise.then(scrollable);
      }
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", ready);
  } else {
    ready();
  }
})();
