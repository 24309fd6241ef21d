// The page's Web Serial side without a browser: SerialBoard and LineClient (the page's own
// modules) driving the emulator (python -m dealerbutton.board.unix) through a port object made of
// the emulator's pipes, shaped like the Web Serial API's SerialPort. Prints one JSON
// object; tests/web/test_web_serial.py checks it.
//     node serial_check.mjs PYTHON STATE_DIR

import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";

import { SerialBoard } from "../../host/dealerbutton_host/web/page/devices.mjs";
import { LineClient, clockLeft, clockText, handLines, mss, owesText, parseLeds, parseReply,
         ringPositions, roles, shown, statusText }
  from "../../host/dealerbutton_host/web/page/lineclient.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const out = {};

// -- the client alone -------------------------------------------------------------------
{
  const sent = [];
  const events = [];
  const others = [];
  const c = new LineClient((t) => sent.push(t), {
    onEvent: (l) => events.push(l), onOther: (l) => others.push(l), timeoutMs: 200 });
  const a = c.send("ping");
  const b = c.send("sit 3");
  c.receive("* seat 3 act");
  c.receive("ive\r\nok po");
  c.receive("ng\rMicroPython v1.27 banner\nerr seat seat 3 is taken\r\n");
  out.client = {
    sent, events, others,
    replies: [(await a).line, (await b).code, (await b).message],
  };
  const late = c.send("state");
  out.client.timeout = await late.then(() => "no timeout", (e) => e.message);
  c.receive("ok {}\n"); // a reply come too late is not taken for the next command's
  out.client.twoLines = await c.send("a\nb").then(() => "sent", (e) => e.message);
  const closed = c.send("ping");
  c.close("unplugged");
  out.client.late = others.slice(1);
  out.client.closed = await closed.then(() => "resolved", (e) => e.message);
  out.client.after = await c.send("ping").then(() => "resolved", (e) => e.message);
  out.parse = [parseReply("ok"), parseReply("err nohand no hand has been dealt yet"),
               parseReply(">>> ")];
  out.leds = parseLeds("FF0000 00ff00 zz 0000FF");
  out.shown = [shown("808080", 128), shown("400000", 128), shown("123456", 255)];
  out.ring = ringPositions(24, 9, 0, false);
  out.ringCcw = ringPositions(12, 3, 2, true);
  out.handLines = handLines({ n: 7, button: 5, sb: null, bb: 2, dealt: [2, 3, 1],
                              posts: { 3: [20, 10] }, first_to_act: 3 });
  out.mss = [0, 1, 999, 1000, 1001, 59999, 60000, 754321, 36000000].map(mss);
  const running = { level: 3, sb: 75, bb: 150, ante: 150, ante_kind: "bb", break: false,
                    ms_left: 10000, running: true, next: { break: 10 } };
  out.clockLeft = [clockLeft(running, 2500.7), clockLeft(running, 20000),
                   clockLeft({ ...running, running: false }, 2500), clockLeft(null, 5)];
  out.clockText = [clockText(running),
                   clockText({ ...running, ante_kind: "each", next: null }),
                   clockText({ ...running, ante_kind: "button", next: null }),
                   clockText({ ...running, break: true,
                               next: { level: 4, sb: 100, bb: 200, ante: 0, minutes: 20 } })];
  out.roles = [roles({ button: 1, sb: 2, bb: 3, dealt: [1, 2, 3, 4], posts: { 4: [20, 0] },
                       first_to_act: 4 }, 4), roles(null, 1)];
  out.owes = [[20, 0], [0, 10], [20, 10], [0, 0], [50, 0], [20, 5]]
    .map((o) => owesText(o, [10, 20]));
  out.status = [{ status: "waiting", choice: "wait" }, { status: "waiting", choice: "post" },
                { status: "away" }, { status: "active" }, { status: "empty" }].map(statusText);
}

// -- SerialBoard against the emulator -----------------------------------------------------
const [python, state] = process.argv.slice(2);
const child = spawn(python, ["-m", "dealerbutton.board.unix", "--state", state],
                    { stdio: ["pipe", "pipe", "inherit"] });
const port = {
  async open(options) {
    this.options = options;
    this.readable = Readable.toWeb(child.stdout);
    this.writable = Writable.toWeb(child.stdin);
  },
  async close() {
    child.stdin.end();
  },
};
const events = [];
const others = [];
const replies = [];
let closedWhy = null;
const handlers = {
  onEvent: (l) => events.push(l),
  onOther: (l) => others.push(l),
  onReply: (c, r) => replies.push([c, r.line]),
};
const board = new SerialBoard(handlers, (why) => { closedWhy = why; });
await board.open(port);
out.baudRate = port.options.baudRate;
for (const s of [1, 2, 3, 4, 5]) {
  board.buttonDown(s);
  board.buttonUp(s);
}
while (replies.length < 5) await sleep(10);
board.buttonDown(5);
await sleep(1050);
board.buttonUp(5); // held past a second: a long press, seat 5 busts out
while (replies.length < 6) await sleep(10);
board.longPress(0); // the keyboard's u: undo (seat 5 is back)
while (replies.length < 7) await sleep(10);
out.replies = replies.slice();
out.state = await board.client.json("state");
out.deal = (await board.client.send("deal 2")).line;
await sleep(350);
const frame = board.frame();
out.frame = frame;
out.leds = [out.leds, parseLeds((await board.client.send("leds")).payload)];
out.events = events.slice();
out.others = others;
await board.close("done");
out.closedWhy = closedWhy;
out.exit = await new Promise((r) => child.on("exit", (code) => r(code)));
console.log(JSON.stringify(out));
