// The page: the ring as it looks, the seats' buttons to press and hold, the hand and the
// seats, the device's events and replies, the configuration. It drives an EmulatedBoard
// (the firmware running here) or a SerialBoard (a real board over Web Serial) alike.

import { CONFIG_KEY, EmulatedBoard, FLASH_KEY, SerialBoard, loadRuntime } from "./devices.mjs";
import { clockLeft, clockText, handLines, mss, owesText, ringPositions, seatRoles, shown,
         statusText } from "./lineclient.mjs";

const SEAT_CODES = ["Digit1", "Digit2", "Digit3", "Digit4", "Digit5", "Digit6", "Digit7",
                    "Digit8", "Digit9", "Digit0", "Minus", "Equal"];
const STATE_EVERY_MS = 1000;
const CLOCK_EVERY_MS = 1000; // the clock is read this often (at once after its events)
const LOG_LINES = 300;
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

let webtable = null; // the runtime's webtable module, once loaded
let device = null;
let config = null; // the running configuration (the `config` reply)
let state = null;
let hand = null;
let leds = [];
let dirty = true; // state and hand must be read again
let refreshing = false;
let lastRefresh = 0;
let clock = null; // a tournament's clock (the `clock` reply); null in a cash game
let clockAt = 0; // when it was read (performance.now())
let clockDue = false; // read it again now
let clockReading = false;
let clockShown = ""; // what the panel shows, to touch the page only when it changes

// -- the log ------------------------------------------------------------------------------
function log(text) {
  const el = $("log");
  const t = new Date().toTimeString().slice(0, 8);
  const lines = (el.textContent ? el.textContent.split("\n") : []);
  lines.push(t + " " + text);
  el.textContent = lines.slice(-LOG_LINES).join("\n");
  el.scrollTop = el.scrollHeight;
}

const handlers = {
  onEvent(line) {
    if (line.startsWith("* hand ")) {
      try {
        hand = JSON.parse(line.slice(7));
        line = "* " + handLines(hand)[0];
      } catch (e) {
        // shown as it came
      }
    }
    if (line.startsWith("* level ") || line.startsWith("* break ") ||
        line.startsWith("* clock ")) clockDue = true;
    log(line);
    dirty = true;
  },
  onOther(line) {
    log("? " + line);
  },
  onReply(command, r) {
    log("> " + command + "\n  " + r.line);
    dirty = true;
  },
};

// -- the ring -----------------------------------------------------------------------------
function buildRing() {
  const svg = $("ring");
  svg.replaceChildren();
  const n = config.leds;
  const { ledTurn, seatTurn } = ringPositions(n, config.seats, config.offset,
                                               config.direction === "ccw");
  const r = 165;
  const size = Math.max(4, Math.min(16, Math.PI * r / n * 0.8));
  const guide = document.createElementNS(SVG, "circle");
  guide.setAttribute("r", r);
  guide.setAttribute("fill", "none");
  guide.setAttribute("stroke", "#26292e");
  guide.setAttribute("stroke-width", size * 2.6);
  svg.append(guide);
  for (let i = 0; i < n; i++) {
    const a = ledTurn[i] * 2 * Math.PI;
    const c = document.createElementNS(SVG, "circle");
    c.setAttribute("class", "led");
    c.setAttribute("id", "led-" + i);
    c.setAttribute("cx", (r * Math.sin(a)).toFixed(1));
    c.setAttribute("cy", (-r * Math.cos(a)).toFixed(1));
    c.setAttribute("r", size.toFixed(1));
    c.setAttribute("fill", "#000000");
    c.dataset.rgb = "000000";
    svg.append(c);
  }
  const box = $("seats");
  box.replaceChildren();
  for (let s = 1; s <= config.seats; s++) {
    const a = seatTurn[s] * 2 * Math.PI;
    const b = document.createElement("button");
    b.className = "button seat";
    b.id = "seat-" + s;
    b.dataset.button = String(s);
    b.style.left = (50 + 43 * Math.sin(a)).toFixed(2) + "%";
    b.style.top = (50 - 43 * Math.cos(a)).toFixed(2) + "%";
    b.innerHTML = `Seat ${s}<small class="status"></small><small class="roles"></small>`;
    box.append(b);
    wireButton(b, s);
  }
  leds = [];
}

function drawRing(frame) {
  const brightness = config ? config.brightness : 255;
  for (let i = 0; i < frame.length; i++) {
    if (frame[i] === leds[i]) continue;
    const c = $("led-" + i);
    if (!c) continue;
    c.dataset.rgb = frame[i];
    c.setAttribute("fill", shown(frame[i], brightness));
  }
  leds = frame;
}

// -- the table ----------------------------------------------------------------------------
function drawTable() {
  $("hand").textContent = handLines(hand).join("\n");
  const body = $("seat-table").tBodies[0];
  body.replaceChildren();
  for (const row of (state ? state.seats : [])) {
    const tr = document.createElement("tr");
    const owes = owesText(row.owes, state.stakes);
    const status = statusText(row);
    for (const text of [row.seat, status, owes, seatRoles(hand, row)]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    tr.id = "row-" + row.seat;
    body.append(tr);
    const b = $("seat-" + row.seat);
    if (b) {
      b.className = "button seat seat-" + row.status + (b.classList.contains("down") ? " down" : "");
      b.querySelector(".status").textContent = status;
      b.querySelector(".roles").textContent = seatRoles(hand, row);
    }
  }
}

async function refresh() {
  refreshing = true;
  dirty = false;
  lastRefresh = performance.now();
  try {
    state = await device.client.json("state");
    const r = await device.client.send("hand");
    if (r.ok) hand = JSON.parse(r.payload);
    else if (r.code === "nohand") hand = null;
    drawTable();
  } catch (e) {
    // a refused config (every command answered err config) or a lost board: said in the log
  }
  refreshing = false;
}

// -- the tournament clock -----------------------------------------------------------------
async function readClock() {
  clockReading = true;
  clockDue = false;
  clockAt = performance.now();
  try {
    const r = await device.client.send("clock");
    if (r.ok) {
      clock = JSON.parse(r.payload);
      clockAt = performance.now();
    } else {
      clock = null; // a cash game (err clock), or a refused config
    }
  } catch (e) {
    // a lost board: said in the log
  }
  clockReading = false;
  drawClock();
}

function drawClock() {
  const box = $("clock-box");
  if (!clock) {
    box.hidden = true;
    clockShown = "";
    return;
  }
  const left = clockLeft(clock, performance.now() - clockAt);
  const text = clockText(clock);
  const state = clock.running ? "running" : "paused";
  const view = [text.level, mss(left), state, text.next].join("|");
  if (view === clockShown) return;
  clockShown = view;
  box.hidden = false;
  $("clock-level").textContent = text.level;
  $("clock-left").textContent = mss(left);
  $("clock-state").textContent = state;
  $("clock-next").textContent = text.next;
  $("clock-toggle").textContent = clock.running ? "Pause the clock" : "Start the clock";
  box.classList.toggle("paused", !clock.running);
  box.classList.toggle("on-break", clock.break);
  box.classList.toggle("soon", clock.running && clock.next !== null && left <= 60000);
}

function clockCommand(words) {
  const line = "clock " + words;
  if (!device || !device.client) return;
  device.client.send(line).then((r) => {
    handlers.onReply(line, r);
    clockDue = true;
  }, (err) => log("> " + line + "\n  " + err.message));
}

$("clock-toggle").addEventListener("click", () => {
  if (clock) clockCommand(clock.running ? "pause" : "resume");
});
$("clock-prev").addEventListener("click", () => clockCommand("prev"));
$("clock-skip").addEventListener("click", () => clockCommand("next"));

function loop() {
  if (device && device.client && !device.client.closed) {
    const frame = device.frame();
    if (frame && config) {
      if (frame.length !== config.leds) {
        config.leds = frame.length;
        buildRing();
      }
      drawRing(frame);
    }
    const late = device.kind === "serial" && performance.now() - lastRefresh > STATE_EVERY_MS;
    if ((dirty || late) && !refreshing && config) refresh();
    if (config && config.tournament) {
      const stale = performance.now() - clockAt > CLOCK_EVERY_MS;
      if ((clockDue || stale) && !clockReading) readClock();
      else drawClock();
    }
  }
  requestAnimationFrame(loop);
}

// -- buttons ------------------------------------------------------------------------------
// A seat button dragged onto another seat (mouse or finger) and let go there is a seat
// change: `move A B`, as the board's own chord (seat A held, seat B pressed) does; the
// next-hand button dragged onto a seat is a kill on its player (next hand held, the seat
// pressed), a half kill when he is marked for a full one already.
function seatUnder(e) {
  const el = document.elementFromPoint(e.clientX, e.clientY);
  const b = el && el.closest ? el.closest("[id^=seat-]") : null;
  return b ? Number(b.id.slice(5)) : 0;
}

function wireButton(el, i) {
  el.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || !device) return;
    el.setPointerCapture(e.pointerId);
    el.classList.add("down");
    device.buttonDown(i);
  });
  const up = (e) => {
    if (!el.classList.contains("down")) return;
    el.classList.remove("down");
    if (!device) return;
    const to = e && e.type === "pointerup" ? seatUnder(e) : 0;
    if (to && i === 0) device.kill(to, fullKill(to));
    else if (to && to !== i) device.move(i, to);
    else device.buttonUp(i);
  };
  el.addEventListener("pointerup", up);
  el.addEventListener("pointercancel", up);
  el.addEventListener("lostpointercapture", up);
  el.addEventListener("contextmenu", (e) => e.preventDefault());
}

function fullKill(seat) {
  const row = state && state.seats ? state.seats.find((r) => r.seat === seat) : null;
  return Boolean(row && row.kill === "full");
}

// Key sequences, as in the terminal emulator: m, seat A, seat B: a seat change (move A B);
// k, seat: a kill (the same again: a half kill); t, seat: a take-over (take N), which no
// button does on the board. Any other key ends a sequence; Escape drops it.
const SEQUENCE_CODES = { KeyM: "m", KeyK: "k", KeyT: "t" };
let pending = "";

function seatOfKey(e) {
  const k = SEAT_CODES.indexOf(e.code);
  return k >= 0 && config && k < config.seats && !e.shiftKey ? k + 1 : 0;
}

// The key goes on with (or starts) a sequence: true when it did.
function sequenceKey(e) {
  const seat = seatOfKey(e);
  const was = pending;
  pending = "";
  if (was && seat) {
    if (was === "m") pending = "m" + seat;
    else if (was.startsWith("m")) sendLine(`move ${was.slice(1)} ${seat}`);
    else if (was === "k") sendLine(`kill ${seat}` + (fullKill(seat) ? " half" : ""));
    else sendLine(`take ${seat}`);
    return true;
  }
  if (SEQUENCE_CODES[e.code]) {
    pending = SEQUENCE_CODES[e.code];
    return true;
  }
  return e.code === "Escape" && Boolean(was);
}

let sequenceSeat = 0; // the seat key that ended a sequence: its keyup is no press

function keyButton(e) {
  if (e.code === "Space" || e.code === "KeyN") return { i: 0, long: false };
  if (e.code === "KeyU") return { i: 0, long: true };
  const k = SEAT_CODES.indexOf(e.code);
  if (k >= 0 && config && k < config.seats) return { i: k + 1, long: e.shiftKey };
  return null;
}

function typing(e) {
  const t = e.target;
  return t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA");
}

document.addEventListener("keydown", (e) => {
  if (typing(e) || e.ctrlKey || e.metaKey || e.altKey || !device) return;
  if (!e.repeat && sequenceKey(e)) {
    e.preventDefault();
    sequenceSeat = seatOfKey(e);
    return;
  }
  const k = keyButton(e);
  if (!k) return;
  e.preventDefault();
  if (e.repeat) return;
  if (k.long) device.longPress(k.i);
  else device.buttonDown(k.i);
});

document.addEventListener("keyup", (e) => {
  if (typing(e) || !device) return;
  if (sequenceSeat && seatOfKey(e) === sequenceSeat) {
    sequenceSeat = 0;
    return;
  }
  const k = keyButton(e);
  if (k && !k.long) device.buttonUp(k.i);
});

// -- starting, switching, configuring -----------------------------------------------------
async function startDevice(d) {
  device = d;
  config = null;
  state = null;
  hand = null;
  clock = null;
  drawClock();
  $("mode").textContent = d.describe();
  const emulated = d.kind === "emulated";
  $("connect").hidden = !emulated || !SerialBoard.available();
  $("emulate").hidden = emulated;
  for (const id of ["power", "forget", "apply", "defaults"]) $(id).disabled = !emulated;
  $("config").readOnly = !emulated;
  $("config-note").textContent = emulated
    ? "Edit and apply: the firmware's own checks decide, then the board powers up with it."
    : "The board's config.json (change it with dealerbutton deploy --config FILE).";
  try {
    config = await d.client.json("config");
  } catch (e) {
    // refused config: the board answers err config; draw the default ring size
    config = { seats: 9, leds: 24, offset: 0, direction: "cw", brightness: 128 };
  }
  const stored = emulated ? d.configText() : "";
  $("config").value = stored || configText(config);
  const tournament = Boolean(config.tournament);
  for (const el of document.querySelectorAll(".tournament-only")) el.hidden = !tournament;
  $("next-hold").textContent = tournament ? "hold: undo, 5 s: clock" : "hold: undo";
  d.tournament = tournament;
  buildRing();
  dirty = true;
  clockDue = tournament;
  document.body.dataset.ready = d.kind;
  if (!document.body.dataset.startMs) {
    document.body.dataset.startMs = String(Math.round(performance.now()));
  }
}

// One field a line, each value on one line: as the shipped config.json is written; a
// tournament's schedule one level (or break) a line.
function compact(v) {
  if (Array.isArray(v)) return "[" + v.map(compact).join(", ") + "]";
  if (v && typeof v === "object") {
    return "{" + Object.keys(v).map((k) => JSON.stringify(k) + ": " + compact(v[k])).join(", ") + "}";
  }
  return JSON.stringify(v);
}

function tournamentText(t) {
  const levels = t.levels.map((e) => "      " + compact(e)).join(",\n");
  return "{\n    \"ante_kind\": " + JSON.stringify(t.ante_kind) + ",\n    \"levels\": [\n" +
    levels + "\n    ]\n  }";
}

function configText(cfg) {
  const lines = Object.keys(cfg).map((k) => "  " + JSON.stringify(k) + ": " +
    (k === "tournament" ? tournamentText(cfg[k]) : compact(cfg[k])));
  return "{\n" + lines.join(",\n") + "\n}\n";
}

function powerCycle() {
  log("power cycle");
  document.body.dataset.ready = "";
  device.start();
  startDevice(device);
}

$("power").addEventListener("click", powerCycle);
$("forget").addEventListener("click", () => {
  if (!confirm("Forget the saved table? The board starts a new one.")) return;
  localStorage.removeItem(FLASH_KEY);
  powerCycle();
});
$("apply").addEventListener("click", () => {
  const text = $("config").value;
  const why = device.checkConfig(text);
  $("config-error").textContent = why;
  if (why) return;
  localStorage.setItem(CONFIG_KEY, text);
  powerCycle();
});
$("defaults").addEventListener("click", () => {
  localStorage.removeItem(CONFIG_KEY);
  $("config-error").textContent = "";
  powerCycle();
});
// A protocol command, its reply in the log (the box below the table, and key sequences).
function sendLine(line) {
  if (!device || !device.client) return;
  device.client.send(line).then((r) => handlers.onReply(line, r),
                                (err) => log("> " + line + "\n  " + err.message));
}

$("command-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const line = $("command").value.trim();
  $("command").value = "";
  sendLine(line);
});

wireButton($("next"), 0);

// The ring's legend: each meaning's LED (over 2 s, or the whole ring at one moment) as the
// firmware's renderer draws it, beside what it means.
async function drawLegend() {
  const rows = await (await fetch("ring-legend.json")).json();
  const list = $("legend");
  for (const row of rows) {
    const li = document.createElement("li");
    const leds = document.createElement("span");
    leds.className = "leds" + (row.ring ? " whole-ring" : "");
    leds.setAttribute("aria-hidden", "true");
    for (const colour of row.leds) {
      const led = document.createElement("span");
      led.style.background = colour;
      leds.append(led);
    }
    const label = document.createElement("span");
    label.className = "label";
    label.textContent = row.label;
    li.append(leds, label);
    list.append(li);
  }
}
drawLegend();

let emulated = null;
$("connect").addEventListener("click", async () => {
  let port;
  try {
    port = await navigator.serial.requestPort();
  } catch (e) {
    return; // nothing chosen
  }
  const serial = new SerialBoard(handlers, (why) => {
    log(why);
    emulated.start();
    startDevice(emulated);
  });
  emulated.stop();
  try {
    await serial.open(port);
  } catch (e) {
    log("cannot use that port: " + e.message);
    await serial.close("not connected");
    return;
  }
  startDevice(serial);
});
$("emulate").addEventListener("click", () => device.close("disconnected"));

async function main() {
  try {
    webtable = await loadRuntime();
  } catch (e) {
    $("mode").textContent = "The board could not start: " + e.message;
    throw e;
  }
  emulated = new EmulatedBoard(webtable, localStorage, handlers);
  emulated.start();
  await startDevice(emulated);
  requestAnimationFrame(loop);
}

main();
