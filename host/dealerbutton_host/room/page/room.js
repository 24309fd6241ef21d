// The room page: polls /room.json every second and draws every table as a small ring; in a
// tournament, the moves that balance the tables, each started (and, until the player sits
// down, cancelled) by a click: POST /moves/start, /moves/cancel; its hand-for-hand button
// switches the room's hand-for-hand on or off (POST /handforhand).
"use strict";

const SVG = "http://www.w3.org/2000/svg";
let last = null;      // the last room received
let lastAt = 0;       // when (performance.now())
let note = "";        // the room's last refusal of a move, kept across redraws

function el(tag, attrs, text) {
  const e = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4))
                                   : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function mmss(ms) {
  if (ms === null || ms === undefined) return "--:--";
  const s = Math.floor(ms / 1000);
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

function ring(t) {
  const svg = el("svg:svg", {viewBox: "-60 -60 120 120", "aria-label": "seats of table " + t.name});
  svg.appendChild(el("svg:ellipse", {class: "felt", rx: 34, ry: 34}));
  const n = t.seats.length;
  t.seats.forEach((s, i) => {
    const a = -Math.PI / 2 + 2 * Math.PI * i / n;   // seat 1 at the top, clockwise
    const x = 46 * Math.cos(a), y = 46 * Math.sin(a);
    const cls = (s.status === "waiting" && s.post ? "post" : s.status) +
      (s.wait ? " moved" : "") + (s.kill || s.seat === t.kill ? " kill" : "") +
      (s.mark === "reserved" || s.mark === "moving" ? " " + s.mark : "");
    const c = el("svg:circle", {cx: x.toFixed(1), cy: y.toFixed(1), r: 9, class: cls,
                                "data-seat": s.seat, "data-status": s.status});
    svg.appendChild(c);
    svg.appendChild(el("svg:text", {x: x.toFixed(1), y: (y + 4).toFixed(1), "text-anchor": "middle",
                                    "font-size": 10, fill: s.status === "empty" ? "#8a978e" : "#000"},
                       String(s.seat)));
    if (s.seat === t.button) {
      const bx = 30 * Math.cos(a), by = 30 * Math.sin(a);
      svg.appendChild(el("svg:circle", {cx: bx.toFixed(1), cy: by.toFixed(1), r: 6, fill: "#fff",
                                        class: "button"}));
      svg.appendChild(el("svg:text", {x: bx.toFixed(1), y: (by + 3).toFixed(1), "text-anchor": "middle",
                                      "font-size": 8, "font-weight": "bold"}, "D"));
    }
  });
  svg.appendChild(el("svg:text", {y: 6, "text-anchor": "middle", "font-size": 16, fill: "#e8efe9"},
                     t.players + "/" + n));
  return svg;
}

// Parts that each stay on one line, with " · " between them (the line breaks there).
function parts(cls, texts) {
  const d = el("div", {class: cls});
  texts.forEach((t, i) => {
    if (i) d.appendChild(document.createTextNode(" · "));
    d.appendChild(el("span", {}, t));
  });
  return d;
}

function plural(n, one, many) {
  return n + " " + (n === 1 ? one : many);
}

function clockParts(c, elapsed) {
  let left = c.ms_left;
  if (left !== null && c.running) left = Math.max(0, left - elapsed);
  const paused = c.running ? "" : " paused";
  if (c["break"]) return ["Break " + mmss(left) + paused];
  return ["Level " + c.level, c.sb + "/" + c.bb + (c.ante ? " ante " + c.ante : ""),
          mmss(left) + paused];
}

function card(t, elapsed) {
  const d = el("div", {class: "table" + (t.online ? "" : " offline"), "data-table": t.name});
  const h = el("h2");
  h.appendChild(el("span", {}, /^\d/.test(t.name) ? "Table " + t.name : t.name));
  if (t.state) h.appendChild(el("span", {class: "open", title: "open seats"}, t.open + " open"));
  d.appendChild(h);
  if (!t.state) {
    d.appendChild(el("div", {class: "facts"}, t.online ? "online, no state yet" : "offline"));
    return d;
  }
  d.appendChild(ring(t));
  const facts = [];
  if (t.away) facts.push(t.away + " away");
  if (t.waiting) facts.push(t.waiting + " waiting");
  if (t.moved) facts.push(plural(t.moved, "mover sits out", "movers sit out"));
  if (t.kill) facts.push("kill hand: seat " + t.kill);
  facts.push((t.per_hour === null || t.per_hour === undefined ? "--" : t.per_hour) + " hands/h");
  if (t.stakes) facts.push(t.stakes[0] + "/" + t.stakes[1]);
  d.appendChild(parts("facts", facts));
  if (t.clock) d.appendChild(parts("clock", clockParts(t.clock, elapsed)));
  if (t.level_next) d.appendChild(el("div", {class: "level-next"},
                                     "Level " + t.level_next + " from the next deal"));
  if (t.handforhand) {
    const over = t.handforhand === "waiting";
    d.appendChild(el("div", {class: "h4h " + t.handforhand},
                     over ? "Hand over: waiting" : "Playing its hand"));
  }
  if (!t.online) d.appendChild(el("div", {class: "off"}, "OFFLINE"));
  return d;
}

function tableNames(names) {
  return names.map(n => /^\d/.test(n) ? "Table " + n : n).join(" · ");
}

// Hand-for-hand: the button, and the panel of the tables still playing their hand.
function handForHand(h, control) {
  const button = document.getElementById("h4h-button");
  const s = document.getElementById("handforhand");
  button.hidden = !h || !control;   // (a --read-only room has no button)
  const on = !!h && h.mode === "on";
  button.setAttribute("aria-pressed", String(on));
  button.textContent = on ? "Stop hand-for-hand" : "Start hand-for-hand";
  if (!on) { s.hidden = true; return; }
  s.hidden = false;
  s.replaceChildren(el("h2", {}, "Hand-for-hand" + (h.deals ? " · " +
                                  plural(h.deals, "deal", "deals") + " together" : "")));
  if (h.playing.length) {
    s.appendChild(el("div", {class: "playing"}, "Still playing their hand: " +
                     tableNames(h.playing)));
  } else if (h.waiting.length) {
    s.appendChild(el("div", {class: "playing"}, "Every hand is over: dealing"));
  }
  if (h.waiting.length) s.appendChild(el("div", {class: "waiting"}, "Hand over: " +
                                         tableNames(h.waiting)));
  if (h.switching.length) s.appendChild(el("div", {class: "note"}, "Not in hand-for-hand yet: " +
                                           tableNames(h.switching)));
  if (h.offline.length) s.appendChild(el("div", {class: "note"}, "Offline, left out: " +
                                         tableNames(h.offline)));
  for (const n of h.level_next) {
    s.appendChild(el("div", {class: "note"}, tableNames([n.table]) + ": level " + n.level +
                     " from the next deal"));
  }
  if (h.levels_differ.length) {
    s.appendChild(el("div", {class: "differ"}, "The clocks differ: " + h.levels_differ.map(
      n => "level " + n.level + " at " + tableNames(n.tables)).join("; ")));
  }
}

async function switchHandForHand() {
  const on = !(last && last.handforhand && last.handforhand.mode === "on");
  try {
    const r = await fetch("handforhand", {method: "POST", body: JSON.stringify({on}),
                                          headers: {"Content-Type": "application/json"}});
    if (!r.ok) throw new Error("HTTP " + r.status);
  } catch (e) {
    document.getElementById("status").textContent = "hand-for-hand not switched: " + e.message;
    return;
  }
  poll();
}

// A move the floor asked for: POST it, then show the room as it is now (or why not).
async function ask(path, body) {
  const note = document.getElementById("moves-note");
  try {
    const r = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                                 body: JSON.stringify(body)});
    const answer = await r.json();
    note.textContent = r.ok ? "" : "Refused: " + answer.error;
  } catch (e) {
    note.textContent = "room server unreachable: " + e.message;
  }
  poll();
}

function button(text, cls, label, action) {
  const b = el("button", {type: "button", class: cls, "aria-label": label}, text);
  b.addEventListener("click", () => { b.disabled = true; action(); });
  return b;
}

function moveText(m) {
  return "Seat " + m.seat + " of table " + m.from + " \u2192 seat " + m.target + " of table " + m.to;
}

function movePhase(m) {
  if (m.phase === "moving") return "in progress: the seat is kept for him";
  if (m.phase === "seated") return "in progress: seated, leaving table " + m.from;
  return "done";
}

function tournament(tour, moves, control) {
  const s = document.getElementById("tournament");
  if (!tour && !moves.length) { s.hidden = true; return; }
  s.hidden = false;
  s.replaceChildren();
  if (tour) {
    s.appendChild(el("h2", {}, "Tournament: " + tour.players + " players at " +
                     tour.sizes.length + " tables"));
    s.appendChild(el("div", {class: "sizes"},
                     tour.sizes.map(x => "Table " + x.name + ": " + x.players).join(" · ")));
    if (tour["break"]) s.appendChild(el("div", {class: "move"}, "Break table " + tour["break"]));
    for (const m of tour.moves) {
      const text = "Move " + (m.seat ? "seat " + m.seat : "a player") + " from table " + m.from +
        " to table " + m.to;
      const row = el("div", {class: "proposal"});
      row.appendChild(el("span", {class: "move"}, text));
      if (control && m.seat) {
        row.appendChild(button("Start", "start", "Start: " + text,
                               () => ask("moves/start", {from: m.from, seat: m.seat, to: m.to})));
      }
      s.appendChild(row);
    }
    if (!tour.moves.length) s.appendChild(el("div", {class: "balanced"}, "Tables balanced"));
  }
  if (moves.length) {
    s.appendChild(el("h3", {}, "Moves"));
    for (const m of moves) {
      const row = el("div", {class: "moving " + (m.state === "done" ? "done" : "going"),
                             "data-move": m.id});
      row.appendChild(el("span", {class: "way"}, moveText(m)));
      row.appendChild(el("span", {class: "phase"}, movePhase(m)));
      if (control && m.phase === "moving") {
        row.appendChild(button("Cancel", "cancel", "Cancel: " + moveText(m),
                               () => ask("moves/cancel", {id: m.id})));
      }
      s.appendChild(row);
    }
  }
  s.appendChild(el("div", {id: "moves-note", role: "status"}, note));
}

function draw() {
  if (!last) return;
  const elapsed = performance.now() - lastAt;
  document.getElementById("title").textContent = "Room " + last.room;
  document.getElementById("totals").replaceChildren(parts("counts", [
    plural(last.tables.length, "table", "tables"), last.online + " online",
    plural(last.players, "player", "players"), plural(last.open, "open seat", "open seats")]));
  document.getElementById("tables").replaceChildren(...last.tables.map(t => card(t, elapsed)));
  const old = document.getElementById("moves-note");
  if (old) note = old.textContent;
  tournament(last.tournament, last.moves || [], last.control);
  handForHand(last.handforhand, last.control);
}

async function poll() {
  try {
    const r = await fetch("room.json", {cache: "no-store"});
    if (!r.ok) throw new Error("HTTP " + r.status);
    last = await r.json();
    lastAt = performance.now();
    document.getElementById("status").textContent = "";
  } catch (e) {
    document.getElementById("status").textContent = "room server unreachable: " + e.message;
  }
  draw();
}

document.getElementById("h4h-button").addEventListener("click", switchHandForHand);
poll();
setInterval(poll, 1000);
