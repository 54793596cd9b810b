// digest-web: progressive enhancement of the two pages. Everything is readable without it;
// it drives the Refresh button and the suite buttons. Server text is only ever put in the
// page with textContent, never as HTML.
"use strict";

const $ = (sel) => document.querySelector(sel);

async function postJson(url, body) {
  const init = { method: "POST", credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(url, init);
  let data = {};
  try { data = await res.json(); } catch (_) { /* non-JSON body: keep {} */ }
  return { status: res.status, data };
}

async function getJson(url) {
  const res = await fetch(url, { credentials: "same-origin", cache: "no-store" });
  return res.json();
}

function say(el, text, kind) {
  el.textContent = text;
  el.classList.remove("ok", "fail");
  if (kind) el.classList.add(kind);
}

function setupRefresh() {
  const form = $("#refresh-form");
  if (!form) return;
  const button = $("#refresh-button");
  const progress = $("#refresh-progress");
  const bar = $("#refresh-bar");
  let started = 0;
  let timer = null;
  let label = "Refreshing…";

  function tick() {
    const secs = Math.round((Date.now() - started) / 1000);
    bar.hidden = false;
    bar.value = secs;
    say(progress, `${label} ${secs} s`);
  }

  function busy(on, text) {
    label = text || "Refreshing…";
    button.disabled = on;
    document.body.classList.toggle("refreshing", on);
    if (on) {
      started = Date.now();
      tick();
      timer = setInterval(tick, 1000);
    } else if (timer) {
      clearInterval(timer);
      timer = null;
      bar.hidden = true;
    }
  }

  // Someone else's refresh (another tab, another process): poll until it ends, then reload.
  async function waitForOther() {
    busy(true, "A refresh is already running; waiting for it to finish…");
    for (;;) {
      await new Promise((r) => setTimeout(r, 1000));
      try {
        const st = await getJson("/api/status");
        if (!st.running) break;
      } catch (_) { /* keep polling */ }
    }
    busy(false);
    say(progress, "The other refresh has finished; reloading…", "ok");
    location.reload();
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    busy(true);
    let res;
    try {
      res = await postJson("/api/refresh");
    } catch (err) {
      busy(false);
      say(progress, `The server could not be reached: ${err}`, "fail");
      return;
    }
    busy(false);
    const msg = res.data.message || res.data.error || "";
    switch (res.status) {
      case 200:
        say(progress, `Refreshed in ${res.data.execution_time} s. ${msg} Reloading…`, "ok");
        document.body.dataset.refreshed = "1";
        setTimeout(() => location.reload(), 600);
        break;
      case 409:
        waitForOther();
        break;
      case 504:
        reloadSaying(`The refresh took too long and was stopped. ${msg}`);
        break;
      case 500:
        reloadSaying(`The refresh failed: ${msg}`);
        break;
      case 401:
        say(progress, "Not signed in: open the page with ?token=… or your credentials.", "fail");
        break;
      default:
        say(progress, `Unexpected answer (HTTP ${res.status}): ${msg}`, "fail");
    }
  });

  // A failed run changed the run history and the error list: reload to show them, and keep
  // the message across the reload.
  function reloadSaying(text) {
    say(progress, text, "fail");
    try {
      sessionStorage.setItem("refreshMessage", text);
      location.reload();
    } catch (_) { /* storage refused: the message stays, without the reload */ }
  }

  const kept = sessionStorage.getItem("refreshMessage");
  if (kept) {
    sessionStorage.removeItem("refreshMessage");
    say(progress, kept, "fail");
  }

  if (button.disabled) waitForOther();
}

function setupTests() {
  const buttons = document.querySelectorAll("button.run-suite");
  if (!buttons.length) return;
  const progress = $("#tests-progress");
  buttons.forEach((button) => {
    button.form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const suite = button.dataset.suite;
      buttons.forEach((b) => { b.disabled = true; });
      const started = Date.now();
      const timer = setInterval(() => {
        say(progress, `Running ${suite}… ${Math.round((Date.now() - started) / 1000)} s`);
      }, 500);
      say(progress, `Running ${suite}…`);
      let res;
      try {
        res = await postJson("/api/tests/run", { suite });
      } catch (err) {
        res = { status: 0, data: { error: String(err) } };
      }
      clearInterval(timer);
      if (res.status === 200) {
        const r = res.data.results;
        say(progress, `${suite}: ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped. Reloading…`,
          r.failed ? "fail" : "ok");
        setTimeout(() => location.reload(), 600);
      } else {
        buttons.forEach((b) => { b.disabled = false; });
        const msg = res.data.error || res.data.message || "";
        say(progress, res.status === 409 ? `Another test run is in progress. ${msg}` : `The test run failed (HTTP ${res.status}): ${msg}`, "fail");
      }
    });
  });
}

// Corrections: the category control of each email moves it at once (the server rewrites the
// stored digest and records who and when), the toast offers Undo. Everything is moved as DOM
// nodes; the only text written is the server's, through textContent.
function setupCorrections() {
  const toast = $("#correction-toast");
  if (!toast) return;
  const text = toast.querySelector(".text");
  const undo = toast.querySelector("button.undo");
  let last = null;

  function recount() {
    document.querySelectorAll("section[data-category]").forEach((sec) => {
      const n = sec.querySelectorAll("li.email").length;
      sec.querySelector(".count").textContent = String(n);
      sec.querySelector("p.none").hidden = n > 0;
    });
  }

  // Into the category's open list, in date order (newest first).
  function place(li, category) {
    const section = [...document.querySelectorAll("section[data-category]")]
      .find((s) => s.dataset.category === category);
    if (!section) return;
    const list = section.querySelector("ul.emails");
    const date = li.querySelector("time").getAttribute("datetime");
    const next = [...list.children].find((o) => o.querySelector("time").getAttribute("datetime") < date);
    list.insertBefore(li, next || null);
    const select = li.querySelector("select.move-to");
    select.value = category;
    select.dataset.current = category;
    recount();
  }

  function setReason(li, reason) {
    const details = li.querySelector("details.reasons");
    const list = details.querySelector("ul");
    [...list.children].filter((r) => r.textContent.startsWith("corrected by ")).forEach((r) => r.remove());
    if (reason) {
      const item = document.createElement("li");
      item.textContent = reason;
      list.prepend(item);
    }
    details.hidden = list.children.length === 0;
  }

  function show(message, kind, canUndo) {
    text.textContent = message;
    toast.classList.toggle("fail", kind === "fail");
    undo.hidden = !canUndo;
    toast.hidden = false;
  }

  document.addEventListener("change", async (ev) => {
    const select = ev.target.closest ? ev.target.closest("select.move-to") : null;
    if (!select) return;
    const li = select.closest("li.email");
    const from = select.dataset.current;
    const to = select.value;
    select.disabled = true;
    let res;
    try {
      res = await postJson("/api/corrections", { email_id: li.dataset.id, category: to });
    } catch (err) {
      res = { status: 0, data: { error: String(err) } };
    }
    select.disabled = false;
    if (res.status === 201) {
      const c = res.data;
      place(li, to);
      setReason(li, `corrected by ${c.created_by} on ${String(c.created_at).slice(0, 10)}`);
      last = { id: c.id, li, from };
      show(`Moved to ${to}.`, "ok", true);
      select.focus();
    } else {
      select.value = from;
      show(`Could not move it (HTTP ${res.status}): ${res.data.error || ""}`, "fail", false);
    }
  });

  undo.addEventListener("click", async () => {
    if (!last) return;
    const { id, li, from } = last;
    undo.disabled = true;
    let res;
    try {
      const r = await fetch(`/api/corrections/${encodeURIComponent(id)}`, { method: "DELETE", credentials: "same-origin" });
      let data = {};
      try { data = await r.json(); } catch (_) { /* keep {} */ }
      res = { status: r.status, data };
    } catch (err) {
      res = { status: 0, data: { error: String(err) } };
    }
    undo.disabled = false;
    if (res.status === 200) {
      last = null;
      place(li, from);
      setReason(li, null);
      show(`Moved back to ${from}.`, "ok", false);
      li.querySelector("select.move-to").focus();
    } else {
      show(`Could not undo (HTTP ${res.status}): ${res.data.error || ""}`, "fail", false);
    }
  });
}

setupRefresh();
setupTests();
setupCorrections();
