import { readFileSync, openSync, readSync, fstatSync, closeSync, writeFileSync } from "node:fs";
const f = "/tmp/big.bin";
writeFileSync(f, Buffer.alloc(384 * 2 ** 20, 7));
const t = (name: string, fn: () => unknown) => { const xs=[]; for (let k = 0; k < 5; k++) { const t0 = performance.now(); fn(); xs.push((performance.now() - t0).toFixed(0)); } console.log(name, xs.join(" ")); };
t("readFileSync", () => readFileSync(f));
const buf = Buffer.allocUnsafe(384 * 2 ** 20);
t("readSync into same", () => { const fd = openSync(f, "r"); let o = 0; while (o < buf.length) o += readSync(fd, buf, o, buf.length - o, o); closeSync(fd); });
t("alloc+fill", () => Buffer.alloc(384 * 2 ** 20, 1));
t("allocUnsafeSlow", () => Buffer.allocUnsafeSlow(384 * 2 ** 20));
