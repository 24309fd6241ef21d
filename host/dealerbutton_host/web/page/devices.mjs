// The two things the page can drive: the emulated board (the firmware's own modules in
// MicroPython's WebAssembly port, its table kept in the browser's storage) and a real
// board over Web Serial. Both speak the line protocol through a LineClient; the page
// presses their buttons with buttonDown(i)/buttonUp(i) (0: the next-hand button), and
// sets `tournament` when the board's config has a tournament clock.

import { LineClient, parseLeds } from "./lineclient.mjs";

export const FLASH_KEY = "dealerbutton.flash"; // the board's saved files
export const CONFIG_KEY = "dealerbutton.config"; // the config.json text, when edited
const TICK_MS = 5; // the board loop (a frame is due every 25 ms)
const MIN_HOLD_MS = 100; // the buttons debounce for 50 ms: a shorter click would be lost
export const LONG_MS = 1000; // a press held this long is a long press
const CHORD_HOLD_MS = 400; // a seat held this long before another is pressed: a move (buttons/chords.py)
const LONG_HOLD_MS = 1200; // how long a long press from the keyboard holds the button
export const CLOCK_HOLD_MS = 5000; // the next-hand button held this long: the clock (tournament)

function nowMs() {
  return Math.floor(performance.now()) & 0x3fffffff;
}

// Load the runtime and put the firmware's modules on its (in-memory) filesystem.
export async function loadRuntime() {
  const { loadMicroPython } = await import("./runtime/micropython.mjs");
  const mp = await loadMicroPython({
    stdout: (t) => console.log(t),
    stderr: (t) => console.error(t),
  });
  // modules.json: the package's modules by path in it ("app.py", "rules/table.py"), sorted;
  // the folders of its packages are made first.
  const modules = await (await fetch("firmware/modules.json")).json();
  const folders = modules.filter((name) => name.endsWith("/__init__.py"))
    .map((name) => "/lib/dealerbutton/" + name.slice(0, -"/__init__.py".length));
  for (const dir of ["/lib", "/lib/dealerbutton", ...folders]) {
    if (!mp.FS.analyzePath(dir).exists) mp.FS.mkdir(dir);
  }
  const texts = await Promise.all(modules.map(async (name) => {
    const r = await fetch("firmware/dealerbutton/" + name);
    if (!r.ok) throw new Error("cannot load firmware/dealerbutton/" + name);
    return r.text();
  }));
  modules.forEach((name, i) => mp.FS.writeFile("/lib/dealerbutton/" + name, texts[i]));
  mp.FS.writeFile("/lib/webtable.py", await (await fetch("webtable.py")).text());
  return mp.pyimport("webtable");
}

export class EmulatedBoard {
  constructor(webtable, storage, handlers) {
    this.kind = "emulated";
    this.tournament = false;
    this.webtable = webtable;
    this.storage = storage;
    this.handlers = handlers;
    this.board = null;
    this.timer = null;
    this.downAt = {};
    this.client = null;
  }

  describe() {
    return "Emulated board: the firmware's own modules running in MicroPython (WebAssembly)." +
      " The table is kept in this browser: a reload is a power cycle.";
  }

  configText() {
    return this.storage.getItem(CONFIG_KEY) || "";
  }

  // Power up: the same as plugging the board in (the saved table is read back).
  start() {
    this.stop();
    this.client = new LineClient((text) => {
      this.board.feed(text);
      this.pump();
    }, this.handlers);
    this.board = this.webtable.Board(this.configText(), this.storage.getItem(FLASH_KEY) || "",
                                     nowMs());
    this.pump();
    this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  stop() {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    if (this.client) this.client.close("the board was switched off");
    this.board = null;
  }

  tick() {
    this.pump(this.board.step(nowMs()));
  }

  // The lines the board wrote, to the client; the saved files, to the browser's storage.
  // waiting: what step() said is waiting (by default: look for both).
  pump(waiting = 3) {
    if (waiting & 1) {
      const text = this.board.take();
      if (text) this.client.receive(text + "\n");
    }
    if (waiting & 2) {
      const saved = this.board.saved();
      if (saved) this.storage.setItem(FLASH_KEY, saved);
    }
  }

  // The frame on the ring when a new one was shown: ["RRGGBB", ...], else null.
  frame() {
    const hex = this.board ? this.board.frame() : "";
    if (!hex) return null;
    const out = [];
    for (let i = 0; i + 6 <= hex.length; i += 6) out.push(hex.slice(i, i + 6).toUpperCase());
    return out;
  }

  buttonDown(i) {
    if (this.downAt[i] !== undefined) return;
    this.downAt[i] = performance.now();
    this.board.pin(i, 1);
  }

  buttonUp(i) {
    const at = this.downAt[i];
    if (at === undefined) return;
    delete this.downAt[i];
    const board = this.board;
    const rest = MIN_HOLD_MS - (performance.now() - at);
    if (rest > 0) setTimeout(() => board.pin(i, 0), rest);
    else board.pin(i, 0);
  }

  longPress(i) {
    this.buttonDown(i);
    setTimeout(() => this.buttonUp(i), LONG_HOLD_MS);
  }

  // Seat a's player moved to seat b: the board's chord, a held (at least CHORD_HOLD_MS),
  // b pressed and let go, then a let go.
  move(a, b) {
    const at = this.downAt[a];
    if (at === undefined) return;
    const wait = Math.max(0, CHORD_HOLD_MS - (performance.now() - at));
    setTimeout(() => {
      this.buttonDown(b);
      setTimeout(() => {
        this.buttonUp(b);
        setTimeout(() => this.buttonUp(a), MIN_HOLD_MS + 60);
      }, MIN_HOLD_MS);
    }, wait);
  }

  // The next-hand button held, then seat n pressed: a kill, or a half kill when its player
  // is marked for a full one already (the firmware tells them apart, as on the board).
  kill(n) {
    this.move(0, n);
  }

  checkConfig(text) {
    return this.webtable.check(text);
  }
}

export class SerialBoard {
  static available() {
    return typeof navigator !== "undefined" && "serial" in navigator;
  }

  constructor(handlers, onClosed) {
    this.kind = "serial";
    this.tournament = false;
    this.handlers = handlers;
    this.onClosed = onClosed;
    this.port = null;
    this.writer = null;
    this.reader = null;
    this.downAt = {};
    this.client = null;
    this.leds = null;
    this.polling = false;
    this.timer = null;
  }

  describe() {
    return "Board on USB (Web Serial): its ring, its table, its buttons.";
  }

  async open(port) {
    this.port = port;
    await port.open({ baudRate: 115200 });
    this.writer = port.writable.getWriter();
    const encoder = new TextEncoder();
    this.client = new LineClient((text) => {
      this.writer.write(encoder.encode(text)).catch(() => {});
    }, this.handlers);
    this.readLoop();
    // An empty line resyncs (whatever was half sent is ended and answered), then ping.
    await this.client.send("");
    const r = await this.client.send("ping");
    if (!r.ok) throw new Error("the board answered " + r.line + ": is dealerbutton running?");
    this.timer = setInterval(() => this.poll(), 100);
  }

  async readLoop() {
    const decoder = new TextDecoder();
    try {
      this.reader = this.port.readable.getReader();
      for (;;) {
        const { value, done } = await this.reader.read();
        if (done) break;
        this.client.receive(decoder.decode(value, { stream: true }));
      }
    } catch (e) {
      this.handlers.onOther("(serial: " + e.message + ")");
    }
    this.close("the board was disconnected");
  }

  async poll() {
    if (this.polling || !this.client || this.client.closed) return;
    this.polling = true;
    try {
      const r = await this.client.send("leds");
      if (r.ok) this.leds = parseLeds(r.payload);
    } catch (e) {
      // a lost board is reported by the read loop
    }
    this.polling = false;
  }

  frame() {
    const leds = this.leds;
    this.leds = null;
    return leds;
  }

  buttonDown(i) {
    if (this.downAt[i] === undefined) this.downAt[i] = performance.now();
  }

  buttonUp(i) {
    const at = this.downAt[i];
    if (at === undefined) return;
    delete this.downAt[i];
    const held = performance.now() - at;
    if (i === 0 && this.tournament && held >= CLOCK_HOLD_MS) this.clockHold();
    else this.command((held >= LONG_MS ? "hold " : "press ") + i);
  }

  // The next-hand button held 5 s at a tournament table: the protocol has no such press,
  // so the page does what the board would, through the clock's commands: it pauses a
  // running clock, else starts it.
  async clockHold() {
    try {
      const c = await this.client.json("clock");
      this.command(c.running ? "clock pause" : "clock resume");
    } catch (e) {
      this.command("hold 0"); // no clock after all: a hold of any length is undo
    }
  }

  longPress(i) {
    this.command("hold " + i);
  }

  // Seat a's player moved to seat b (a's press is dropped).
  move(a, b) {
    delete this.downAt[a];
    this.command(`move ${a} ${b}`);
  }

  // A kill on seat n's player (the next-hand button's press is dropped); half: a half kill,
  // as the board's chord gives on a player marked for a full one.
  kill(n, half) {
    delete this.downAt[0];
    this.command(`kill ${n}` + (half ? " half" : ""));
  }

  command(line) {
    this.client.send(line).then((r) => this.handlers.onReply(line, r), () => {});
  }

  async close(why) {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    if (!this.client || this.client.closed) return;
    this.client.close(why);
    try {
      if (this.reader) await this.reader.cancel();
      if (this.writer) this.writer.releaseLock();
      await this.port.close();
    } catch (e) {
      // already gone
    }
    this.onClosed(why);
  }
}
