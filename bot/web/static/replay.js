// The replay viewer, smoother: ◀ ▶, the slider, the seat switcher and the arrow keys fetch the next state of
// the page and swap the replay in place (no reload, the address follows). Without JavaScript the same controls
// are plain links and a form, and work the same.
(function () {
  "use strict";
  var busy = null;

  function replay() { return document.getElementById("replay"); }

  function load(url, push) {
    if (busy) { busy.abort(); }
    busy = new AbortController();
    return fetch(url, { signal: busy.signal, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) { throw new Error(response.status); }
        return response.text();
      })
      .then(function (text) {
        var fresh = new DOMParser().parseFromString(text, "text/html").getElementById("replay");
        if (!fresh) { window.location.href = url; return; }
        replay().replaceWith(fresh);
        if (push) { history.pushState({ replay: true }, "", url); }
        wire();
        preload();
      })
      .catch(function (error) {
        if (error && error.name === "AbortError") { return; }
        window.location.href = url; // the plain link still works
      });
  }

  function preload() {
    var next = replay() && replay().querySelector("a.next:not(.off)");
    if (!next) { return; }
    var target = new URL(next.href, window.location.href);
    replay().querySelectorAll("img").forEach(function (img) {
      var source = new URL(img.src, window.location.href);
      source.searchParams.set("step", target.searchParams.get("step"));
      new Image().src = source.toString();
    });
  }

  function wire() {
    var root = replay();
    if (!root) { return; }
    root.querySelectorAll(".controls a, .seats a").forEach(function (link) {
      link.addEventListener("click", function (event) {
        if (event.ctrlKey || event.metaKey || event.shiftKey) { return; }
        event.preventDefault();
        load(link.href, true);
      });
    });
    var slider = root.querySelector(".controls input[type=range]");
    var form = root.querySelector("form.slider");
    if (slider && form) {
      var timer = null;
      var go = function () {
        var url = new URL(window.location.href);
        url.searchParams.set("seat", root.dataset.viewer);
        url.searchParams.set("step", slider.value);
        load(url.toString(), true);
      };
      slider.addEventListener("input", function () {
        var label = root.querySelector(".stepno");
        if (label) { label.dataset.pending = slider.value; }
        clearTimeout(timer);
        timer = setTimeout(go, 150);
      });
      form.addEventListener("submit", function (event) { event.preventDefault(); go(); });
    }
  }

  document.addEventListener("keydown", function (event) {
    var root = replay();
    if (!root || event.target.tagName === "INPUT" && event.target.type !== "range") { return; }
    var which = event.key === "ArrowLeft" ? "a.prev" : event.key === "ArrowRight" ? "a.next" : null;
    var link = which && root.querySelector(which + ":not(.off)");
    if (link) { event.preventDefault(); load(link.href, true); }
  });

  window.addEventListener("popstate", function () { load(window.location.href, false); });

  document.addEventListener("DOMContentLoaded", function () { wire(); preload(); });
})();
