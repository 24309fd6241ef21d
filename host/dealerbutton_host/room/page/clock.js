// The clock page for a TV: the room's tournament clock (room.json's "clock") in large type,
// counting down between polls, with a chime at a level change and a minute before the end
// of a level once a click has allowed the page to make sounds.
"use strict";

const MINUTE_MS = 60000;
let last = null;      // the last room received
let lastAt = 0;       // when (performance.now())
let audio = null;     // the AudioContext, made at the click that allows sound
let seen = null;      // {entry, left}: the entry of the schedule last drawn and its time left

function $(id) {
  return document.getElementById(id);
}

// ms as M:SS, rounded up to the second as the device shows it (0:00 has run out).
function mss(ms) {
  if (ms === null || ms === undefined) return "--:--";
  const s = Math.ceil(ms / 1000);
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

function plural(n, one, many) {
  return n + " " + (n === 1 ? one : many);
}

// How the clock names an ante of each kind (each player's, the big blind's, the dealer's).
const ANTES = {each: "ante ", bb: "BB ante ", button: "dealer ante "};

function blinds(level, kind) {
  let text = level.sb + "/" + level.bb;
  if (level.ante) text += " · " + (ANTES[kind] || "ante ") + level.ante;
  return text;
}

function nextText(c) {
  if (!("next" in c)) return "";          // a device that does not say
  const n = c.next;
  if (n === null) return "Last level";
  if ("break" in n) return "Next: Break · " + n["break"] + " min";
  return "Next: Level " + n.level + " · " + blinds(n, c.ante_kind) +
    (n.minutes ? " · " + n.minutes + " min" : "");
}

// The players and tables left: the tournament's when tables play one, else the room's.
function countsText(room) {
  const tour = room.tournament;
  if (tour) {
    const tables = tour.sizes.filter((s) => s.players > 0).length;
    return plural(tour.players, "player", "players") + " left · " + plural(tables, "table", "tables");
  }
  const tables = room.tables.filter((t) => t.state).length;
  return plural(room.players, "player", "players") + " · " + plural(tables, "table", "tables");
}

// The clock's time left now: the room's figure less the time since it came, while it runs.
function timeLeft(c) {
  if (c.ms_left === null || c.ms_left === undefined) return null;
  return c.running ? Math.max(0, c.ms_left - (performance.now() - lastAt)) : c.ms_left;
}

// A text too wide for its line at the size the style gives it is made smaller to fit.
function fit(e) {
  e.style.fontSize = "";
  if (e.scrollWidth > e.clientWidth) {
    const size = parseFloat(getComputedStyle(e).fontSize);
    e.style.fontSize = Math.floor(size * e.clientWidth / e.scrollWidth) + "px";
  }
}

function show(id, text) {
  const e = $(id);
  if (e.textContent !== text) e.textContent = text;
  fit(e);
}

function beep(at, hz, seconds) {
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.frequency.value = hz;
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(0.4, at + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + seconds);
  osc.connect(gain).connect(audio.destination);
  osc.start(at);
  osc.stop(at + seconds);
}

// "level": three rising notes; "minute": two equal ones; "on": one short note.
function chime(kind) {
  if (!audio) return;
  const notes = {level: [660, 880, 1100], minute: [880, 880], on: [660]}[kind];
  const t = audio.currentTime + 0.05;
  notes.forEach((hz, i) => beep(t + i * 0.35, hz, 0.3));
}

// Chimes when the clock moves to another entry of the schedule, and when the time left
// goes below a minute with a level or break still to come.
function listen(c, left) {
  const entry = c ? (c["break"] ? "break " : "level ") + c.level : null;
  if (seen && seen.entry && entry && entry !== seen.entry) {
    chime("level");
  } else if (seen && entry && entry === seen.entry && c.next !== null && left !== null &&
             seen.left !== null && seen.left > MINUTE_MS && left <= MINUTE_MS) {
    chime("minute");
  }
  seen = {entry: entry, left: left};
}

function draw() {
  if (!last) return;
  const c = last.clock;
  const left = c ? timeLeft(c) : null;
  $("title").textContent = "Room " + last.room;
  show("counts", countsText(last));
  if (!c) {
    $("source").textContent = "no table online reports a clock";
    show("level", "No tournament clock");
    show("blinds", "");
    show("next", "");
    show("time", "--:--");
  } else {
    $("source").textContent = "clock of " + (/^\d/.test(c.table) ? "table " + c.table : c.table);
    show("level", (c["break"] ? "Break" : "Level " + c.level) + (c.running ? "" : " · Paused"));
    show("blinds", c["break"] ? "" : "Blinds " + blinds(c, c.ante_kind));
    show("next", nextText(c));
    show("time", mss(left));
  }
  document.body.classList.toggle("paused", Boolean(c && !c.running));
  listen(c, left);
}

async function poll() {
  try {
    const r = await fetch("room.json", {cache: "no-store"});
    if (!r.ok) throw new Error("HTTP " + r.status);
    last = await r.json();
    lastAt = performance.now();
    $("status").textContent = "";
  } catch (e) {
    $("status").textContent = "room server unreachable: " + e.message;
  }
  draw();
}

$("chime").addEventListener("click", () => {
  try {
    audio = new (window.AudioContext || window.webkitAudioContext)();
    audio.resume();
    $("chime").hidden = true;
    chime("on");
  } catch (e) {
    $("status").textContent = "no sound in this browser: " + e.message;
  }
});
window.addEventListener("resize", draw);

poll();
setInterval(poll, 1000);
setInterval(draw, 200);
