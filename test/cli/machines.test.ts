/** commplan machines: every preset listed with its ports and simulator topology. */
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import type { CliIo } from "../../src/cli/io.js";
import { MACHINES } from "../../src/machines/presets.js";

async function run(...argv: string[]): Promise<{ code: number; out: string }> {
  let out = "";
  const io: CliIo = { out: (t) => void (out += t), err: () => undefined, interactive: false };
  const code = await main(argv, io);
  return { code, out };
}

describe("commplan machines", () => {
  it("lists every preset with its ports and its simulator topology (flat unless the preset names one)", async () => {
    const r = await run("machines");
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split("\n");
    const head = lines[0]!.split(/\s{2,}/);
    expect(head.slice(0, 7)).toEqual(["name", "T_s", "t_c", "t_d", "t_m", "ports", "topology"]);
    expect(lines.length).toBeGreaterThanOrEqual(MACHINES.length + 1);
    for (const m of MACHINES) {
      const row = lines.find((l) => l.startsWith(`${m.name} `));
      expect(row, m.name).toBeDefined();
      const cells = row!.split(/\s{2,}/);
      expect(cells[5]).toBe(String(m.ports));
      expect(cells[6]).toBe(m.fabric ?? "flat");
    }
    expect(lines.some((l) => l.startsWith("cm5-fat-tree ") && l.split(/\s{2,}/)[6] === "cm5-fat-tree")).toBe(true);
  });
});
