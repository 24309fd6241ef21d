// The board's heap in use, measured on a 32-bit MicroPython: the WebAssembly port.
//
//   node heap32.mjs MPY_DIR RUNTIME_DIR [BENCH_DEVICE_PY]
//
// MPY_DIR holds dealerbutton/*.mpy: the bytecode files deploy sends (modules with native
// code cannot load on this port: leave them out and count them apart). RUNTIME_DIR is the
// npm package @micropython/micropython-webassembly-pyscript (`npm ci`). BENCH_DEVICE_PY:
// the bench's device script (default: bench_device.py beside this file), whose stand-ins,
// make_app and play build and drive the App as the bench does on the unix port.
//
// That port is a 32-bit MicroPython (4-byte words, the rp2 port's object layout), so its
// gc.mem_alloc() is the board's. Two things differ from a board, and the steps allow for
// them: gc.collect() frees nothing while Python code called from JavaScript is still running
// (the C stack is scanned conservatively), so each figure is taken in a new runPython call
// after a turn of the event loop; and the heap grows by itself, so only mem_alloc() deltas
// mean anything (never mem_free()). Each configuration runs in a fresh interpreter, in a
// process of its own, as a board runs one config.json. Progress on stderr; one JSON object
// on stdout's last line.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

function refuse(msg, code = 2) {
  process.stderr.write("heap32: " + msg + "\n");
  process.exit(code);
}

const args = process.argv.slice(2);
if (args.length < 2 || args.length > 3) {
  refuse("usage: node heap32.mjs MPY_DIR RUNTIME_DIR [BENCH_DEVICE_PY]");
}
const [mpyDir, runtimeDir] = args.map((a) => resolve(a));
const here = dirname(fileURLToPath(import.meta.url));
const devicePy = resolve(args[2] || join(here, "bench_device.py"));
if (!existsSync(mpyDir) || !statSync(mpyDir).isDirectory()) refuse(mpyDir + " is not a folder");
if (!existsSync(join(mpyDir, "dealerbutton", "app.mpy"))) {
  refuse(mpyDir + " has no dealerbutton/app.mpy (the .mpy files deploy sends)");
}
const runtimeMjs = join(runtimeDir, "micropython.mjs");
if (!existsSync(runtimeMjs)) {
  refuse("MicroPython's WebAssembly runtime is not in " + runtimeDir + ": run `npm ci`");
}
if (!existsSync(devicePy)) refuse(devicePy + " does not exist");

const { loadMicroPython } = await import(pathToFileURL(runtimeMjs).href);
const tick = () => new Promise((done) => setTimeout(done, 0));
const mpyFiles = readdirSync(join(mpyDir, "dealerbutton")).filter((f) => f.endsWith(".mpy")).sort();

// A fresh interpreter with the .mpy files in /lib/dealerbutton and the device script in /lib.
async function fresh() {
  const lines = [];
  const mp = await loadMicroPython({ heapsize: 512 * 1024, linebuffer: true,
    stdout: (line) => lines.push(line), stderr: (line) => process.stderr.write(line + "\n") });
  mp.FS.mkdir("/lib");
  mp.FS.mkdir("/lib/dealerbutton");
  for (const f of mpyFiles) {
    mp.FS.writeFile("/lib/dealerbutton/" + f, readFileSync(join(mpyDir, "dealerbutton", f)));
  }
  mp.FS.writeFile("/lib/bench_device.py", readFileSync(devicePy));
  const run = (code) => {
    try {
      mp.runPython(code);
    } catch (e) {
      const text = String(e.message || e).trim().split("\n");
      refuse("MicroPython: " + text[text.length - 1], 1);
    }
  };
  // gc.collect() in a call of its own, after the event loop has turned: then it frees.
  const measure = async () => {
    await tick();
    run("gc.collect()\nprint('heap32 %d' % (gc.mem_alloc() - _base))");
    const line = lines.pop();
    const m = /^heap32 (-?\d+)$/.exec(line || "");
    if (!m) refuse("no figure printed (got " + JSON.stringify(line) + ")", 1);
    return Number(m[1]);
  };
  const value = (code) => {
    run("print('heap32 ' + repr(" + code + "))");
    const line = lines.pop() || "";
    return line.startsWith("heap32 ") ? line.slice(7) : null;
  };
  run("import gc, sys\nimport bench_device as bd\nbd.install_board_stand_ins()");
  await tick();
  run("gc.collect()\n_base = gc.mem_alloc()");
  return { run, measure, value };
}

// The firmware as main.py imports it: bench_device.IMPORT_ORDER, in one go.
async function imported(s) {
  s.run("for _n in bd.IMPORT_ORDER:\n    __import__(_n)\n_n = None");
  return s.measure();
}

// Each module's share, imported one by one in a fresh interpreter (their sum is a little
// off the figure above: the pools of interned names fill in another order).
async function perModule() {
  const s = await fresh();
  const order = JSON.parse(s.value("list(bd.IMPORT_ORDER)").replace(/'/g, '"'));
  const out = {};
  let last = 0;
  for (const name of order) {
    s.run("__import__(" + JSON.stringify(name) + ")");
    const now = await s.measure();
    out[name] = now - last;
    last = now;
  }
  return out;
}

// A config with more blocks ("tournament", "network"): its App built and 20 hands played,
// with a network block the Net board.start adds (net.py; not umqtt.simple, not the Wi-Fi
// driver). null when this firmware refuses the block or the device script has none.
async function variant(blocks) {
  const s = await fresh();
  for (const b of blocks) {
    if (s.value("hasattr(bd, '" + b.toUpperCase() + "')") !== "True") return null;
  }
  await imported(s);
  const extra = blocks.map((b) => "'" + b + "': bd." + b.toUpperCase()).join(", ");
  s.run("from dealerbutton.app import App\ntry:\n    app = bd.make_app(App, extra={" + extra +
        "})\nexcept SystemExit as exc:\n    app = None\n    print('heap32 refused %s' % exc)");
  if (s.value("app is None") === "True") {
    process.stderr.write("heap32: " + blocks.join(" + ") + ": the firmware refuses the block\n");
    return null;
  }
  if (blocks.includes("network")) {
    s.run("from dealerbutton import net as _netmod\n" +
          "net = _netmod.Net(app, bd.NETWORK, bd.NoClient, app.now, bd.wifi_down)");
  }
  s.run("bd.play(app, bd.Rng(7), 20)");
  return s.measure();
}

// The plain table: the firmware imported, the App built, 200 hands played.
async function table() {
  const s = await fresh();
  const out = { import_b: await imported(s) };
  s.run("from dealerbutton.app import App\napp = bd.make_app(App)");
  out.app_b = await s.measure();
  s.run("bd.play(app, bd.Rng(2024), 200)");
  out.played_b = await s.measure();
  const text = (code) => s.value(code).replace(/'/g, "");
  out.modules = JSON.parse(s.value("sorted(k for k in sys.modules if k.startswith('dealerbutton'))")
    .replace(/'/g, '"'));
  out.loaded_from = text("sys.modules['dealerbutton.rules'].__file__");
  out.runtime = text("sys.implementation.name");
  out.version = text("'%d.%d.%d' % sys.implementation.version[:3]");
  out.platform = text("sys.platform");
  out.word_bits = s.value("sys.maxsize") === String(2 ** 31 - 1) ? 32 : 64;
  return out;
}

// One interpreter per process: the runtime frees Python objects its JavaScript proxies held
// through one global finalizer bound to the last interpreter loaded, at moments the JS
// collector picks, so a second interpreter in this process could see its heap change under it.
const PARTS = {
  table,
  tournament: () => variant(["tournament"]),
  network: () => variant(["network"]),
  network_tournament: () => variant(["network", "tournament"]),
  per_module: perModule,
};
const part = process.env.HEAP32_PART;
if (part) {
  process.stdout.write(JSON.stringify(await PARTS[part]()) + "\n");
} else {
  process.stderr.write("heap32: " + mpyFiles.length + " .mpy files from " + mpyDir + "\n");
  const results = {};
  for (const name of Object.keys(PARTS)) {
    const child = spawnSync(process.execPath, process.argv.slice(1), {
      env: Object.assign({}, process.env, { HEAP32_PART: name }), encoding: "utf8" });
    process.stderr.write(child.stderr || "");
    if (child.status !== 0) process.exit(child.status === null ? 1 : child.status);
    results[name] = JSON.parse(child.stdout.trim().split("\n").pop());
  }
  const out = Object.assign(results.table, {
    node: process.version,
    mpy_files: mpyFiles,
    tournament_b: results.tournament,
    wifi_b: results.network,
    wifi_tournament_b: results.network_tournament,
    per_module_b: results.per_module,
  });
  process.stdout.write(JSON.stringify(out) + "\n");
}
