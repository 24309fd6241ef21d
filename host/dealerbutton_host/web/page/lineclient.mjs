// The device's line protocol (PROTOCOL.md) over any byte stream: the emulated board in
// this page, a board over Web Serial, or (in the tests, under Node) the emulator's pipes.
// Every command line gets exactly one reply line, in order; lines beginning "* " are
// events, never replies; anything else (a board at its REPL, a boot banner) is "other".

export function parseReply(line) {
  const r = { line, ok: false, bad: false, payload: "", code: "", message: "" };
  if (line === "ok" || line.startsWith("ok ")) {
    r.ok = true;
    r.payload = line.slice(3);
  } else if (line.startsWith("err ")) {
    const rest = line.slice(4);
    const sp = rest.indexOf(" ");
    r.code = sp < 0 ? rest : rest.slice(0, sp);
    r.message = sp < 0 ? "" : rest.slice(sp + 1);
  } else {
    r.bad = true;
    r.code = "bad";
    r.message = line;
  }
  return r;
}

export class LineClient {
  // write(text): sends text to the device. Events go to onEvent(line), other lines to
  // onOther(line). A reply not come within timeoutMs fails its send().
  constructor(write, { onEvent = () => {}, onOther = () => {}, timeoutMs = 5000 } = {}) {
    this.write = write;
    this.onEvent = onEvent;
    this.onOther = onOther;
    this.timeoutMs = timeoutMs;
    this.pending = [];
    this.partial = "";
    this.closed = null;
  }

  // Text from the device, in chunks of any size: CR, LF and CRLF each end a line.
  receive(text) {
    const lines = (this.partial + text).split(/\r\n|\r|\n/);
    this.partial = lines.pop();
    for (const line of lines) {
      if (line !== "") this.line(line);
    }
  }

  line(line) {
    if (line.startsWith("* ")) {
      this.onEvent(line);
    } else if ((line === "ok" || line.startsWith("ok ") || line.startsWith("err "))
               && this.pending.length) {
      const p = this.pending.shift();
      clearTimeout(p.timer);
      p.resolve(parseReply(line));
    } else {
      this.onOther(line);
    }
  }

  // Send one command line; resolves to its reply (see parseReply), rejects on a timeout
  // or when the link closes. A command must be one printable line.
  send(command) {
    if (this.closed) return Promise.reject(new Error(this.closed));
    if (/[\r\n]/.test(command)) return Promise.reject(new Error("a command is one line"));
    return new Promise((resolve, reject) => {
      const p = { command, resolve, reject, timer: null };
      p.timer = setTimeout(() => {
        const i = this.pending.indexOf(p);
        if (i >= 0) this.pending.splice(i, 1);
        reject(new Error("no reply to " + command + " within " + this.timeoutMs + " ms"));
      }, this.timeoutMs);
      this.pending.push(p);
      try {
        this.write(command + "\n");
      } catch (e) {
        this.pending.splice(this.pending.indexOf(p), 1);
        clearTimeout(p.timer);
        reject(e);
      }
    });
  }

  // A command whose reply must be ok with a JSON payload: the parsed payload.
  async json(command) {
    const r = await this.send(command);
    if (!r.ok) throw new Error(command + ": " + r.line);
    return JSON.parse(r.payload);
  }

  close(why = "the device is gone") {
    this.closed = why;
    for (const p of this.pending.splice(0)) {
      clearTimeout(p.timer);
      p.reject(new Error(why));
    }
  }
}

// -- what the page shows, from the replies (the same words as the terminal view) ----------
export function parseLeds(payload) {
  const out = [];
  for (const word of payload.trim().split(/\s+/)) {
    if (/^[0-9A-Fa-f]{6}$/.test(word)) out.push(word.toUpperCase());
  }
  return out;
}

export function money(pair) {
  const [live, dead] = pair;
  if (live && dead) return `${live}+${dead} dead`;
  if (dead) return `${dead} dead`;
  return `${live}`;
}

// What a seat owes to come in, [live, dead], as said at the table (the stakes say which
// blind an amount is): "the big blind (20)", "BB 20 + SB 10 (dead)"; "" for nothing.
export function owesText(owes, stakes) {
  const [live, dead] = owes || [0, 0];
  const [sb, bb] = stakes || [null, null];
  if (live && dead) {
    return live === bb && dead === sb ? `BB ${live} + SB ${dead} (dead)` : `${live} + ${dead} dead`;
  }
  if (live) return live === bb ? `the big blind (${live})` : `${live}`;
  if (dead) return dead === sb ? `the small blind (${dead}, dead)` : `${dead} dead`;
  return "";
}

// A seat's status in words: a waiting player by his choice.
export function statusText(row) {
  if (row.status !== "waiting") return row.status;
  if (row.wait && row.choice !== "post") {
    return `moved: sits out ${row.wait} more deal${row.wait === 1 ? "" : "s"}`;
  }
  return row.choice === "post" ? "will post, then play" : "waiting for the big blind";
}

export function handLines(hand) {
  if (!hand) {
    return ["no hand dealt yet: seat the players, press the next-hand button,",
            "then the seat that won the draw for the button"];
  }
  const dealt = hand.dealt || [];
  const dead = !dealt.includes(hand.button);
  const posts = hand.posts || {};
  const postText = Object.keys(posts).sort((a, b) => a - b)
    .map((s) => `${s}: ${money(posts[s])}`).join(", ");
  const sb = hand.sb === null || hand.sb === undefined ? "no small blind this hand"
    : `SB ${hand.sb}`;
  const extra = (hand.kill ? `  kill ${hand.kill}` : "") +
    (hand.button_blind ? `  button blind ${hand.button_blind}` : "");
  return [`hand ${hand.n}: D ${hand.button}${dead ? " (dead)" : ""}  ${sb}` +
          `  BB ${hand.bb}  first to act ${hand.first_to_act}${extra}`,
          `dealt ${dealt.join(" ")}`, `posts ${postText || "-"}`];
}

export function roles(hand, seat) {
  if (!hand) return "";
  const out = [];
  const dealt = hand.dealt || [];
  if (hand.button === seat) out.push(dealt.includes(seat) ? "D" : "D(dead)");
  if (hand.sb === seat) out.push("SB");
  if (hand.bb === seat) out.push("BB");
  if (hand.kill === seat) out.push("kill");
  if (hand.button_blind === seat) out.push("button blind");
  if (hand.first_to_act === seat) out.push("first");
  const post = (hand.posts || {})[String(seat)];
  if (post && seat !== hand.sb && seat !== hand.bb) out.push("posts " + money(post));
  return out.join(" ");
}

// What a seat's row says beside its roles in the hand: a kill marked for the next hand, a
// missed ante or button blind among what he owes.
export function seatRoles(hand, row) {
  const out = [roles(hand, row.seat)];
  if (row.kill) out.push(row.kill === "half" ? "half kill next hand" : "kill next hand");
  const missed = (row.missed || []).filter((m) => m === "ante" || m === "button_blind");
  if (missed.length) out.push("missed " + missed.join(", ").replace("button_blind", "button blind"));
  return out.filter((t) => t).join("; ");
}

// LED and seat angles in turns from the top, clockwise, seat 1 first, following the
// firmware's arcs: seat s owns logical LEDs [(s-1)*L/N, s*L/N) (integer division), and
// logical LED k is strip LED offset + k (ccw: offset - k).
export function ringPositions(leds, seats, offset = 0, reverse = false) {
  const step = reverse ? -1 : 1;
  const ledTurn = new Array(leds).fill(0);
  for (let k = 0; k < leds; k++) {
    ledTurn[(((offset + step * k) % leds) + leds) % leds] = (k + 0.5) / leds;
  }
  const seatTurn = new Array(seats + 1).fill(0);
  for (let s = 1; s <= seats; s++) {
    const a = Math.floor((s - 1) * leds / seats);
    const b = Math.floor(s * leds / seats);
    seatTurn[s] = (a + b) / 2 / leds;
  }
  return { ledTurn, seatTurn };
}

// An LED as the eye sees it: the brightness setting undone (a LED at half power still
// looks bright; a screen pixel at half value looks grey).
export function shown(hex, brightness) {
  const v = parseInt(hex, 16);
  let rgb = [(v >> 16) & 255, (v >> 8) & 255, v & 255];
  if (brightness > 0) rgb = rgb.map((c) => Math.min(255, Math.floor(c * 255 / brightness)));
  return "#" + rgb.map((c) => c.toString(16).padStart(2, "0")).join("").toUpperCase();
}

// -- the tournament clock (the `clock` reply), in the words of the terminal view ----------
// ms as M:SS, rounded up to the second (a clock showing 0:00 has run out), as the firmware.
export function mss(ms) {
  const s = Math.floor((Math.max(0, ms) + 999) / 1000);
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

// The clock's ms left now: a running clock counts down from its reading, elapsedMs ago.
export function clockLeft(c, elapsedMs) {
  if (!c) return 0;
  return c.running ? Math.max(0, c.ms_left - Math.floor(elapsedMs)) : c.ms_left;
}

// An ante kind as the clock names it ("each": every player dealt in, said as plain "ante").
const ANTE_KINDS = { bb: "big-blind ante", button: "dealer ante" };

// { level, next }: the level in force (or the break) and what comes after it.
export function clockText(c) {
  const kind = c.ante && ANTE_KINDS[c.ante_kind] ? ` (${ANTE_KINDS[c.ante_kind]})` : "";
  const level = c.break
    ? "BREAK: no hand is dealt"
    : `Level ${c.level} · ${c.sb}/${c.bb} · ante ${c.ante}${kind}`;
  const n = c.next;
  let next;
  if (n === null || n === undefined) next = "last level: the blinds stay";
  else if ("break" in n) next = `next: a break of ${n.break} min`;
  else next = `next: level ${n.level} · ${n.sb}/${n.bb} · ante ${n.ante} (${n.minutes} min)`;
  return { level, next };
}
