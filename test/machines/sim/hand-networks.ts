/** Small NetworkRoutes built by hand for the flow-model tests (a flat star, a 2-level fat tree with an oversubscribed uplink, a 1D ring), one-stage schedules written as lists, and a bare machine. */
import { findMachine } from "../../../src/machines/presets.js";
import type { MachineModel } from "../../../src/model/machine.js";
import type { NetworkRoutes } from "../../../src/model/network.js";

/** A machine with only the costs a hand case needs: start-up ts (half of it to send), t_d 1 us per byte, one port, the barrier given, no copy or compose cost. */
export const bare = (ts: number, barrier = 0): MachineModel => ({
  ...findMachine("t3d-004"),
  ts,
  tsSend: ts / 2,
  tc: 0,
  td: 1,
  tm: 0,
  barrier,
  ports: 1,
});

/** Link tables of a network under construction. */
class Links {
  readonly bw: number[] = [];
  readonly lat: number[] = [];
  readonly label: string[] = [];
  add(label: string, bw: number, lat: number): number {
    this.label.push(label);
    this.bw.push(bw);
    this.lat.push(lat);
    return this.label.length - 1;
  }
  build(name: string, hosts: number, maxHops: number, route: (a: number, b: number) => number[]): NetworkRoutes {
    return {
      name,
      hosts,
      links: this.label.length,
      bandwidth: Float64Array.from(this.bw),
      latency: Float64Array.from(this.lat),
      maxHops,
      linkLabel: (id) => this.label[id]!,
      route: (a, b, out) => {
        const r = route(a, b);
        out.set(r);
        return r.length;
      },
    };
  }
}

/** A star: every host has an up link (host->sw) and a down link (sw->host) of bandwidth bw and latency lat. */
export function star(p: number, bw: number, lat = 0): NetworkRoutes {
  const L = new Links();
  for (let a = 0; a < p; a++) {
    L.add(`host${a}->sw`, bw, lat);
    L.add(`sw->host${a}`, bw, lat);
  }
  return L.build(`star:${p}`, p, 2, (a, b) => [2 * a, 2 * b + 1]);
}

/**
 * A 2-level fat tree: `leaves` leaf switches of `k` hosts each under one spine. Host links have
 * bandwidth `bw`, each leaf's up and down link to the spine k * bw / oversub; every link latency `lat`.
 * Links: host a up 2a, down 2a + 1; leaf l up 2p + 2l, down 2p + 2l + 1.
 */
export function fatTree(leaves: number, k: number, bw: number, oversub: number, lat = 0): NetworkRoutes {
  const p = leaves * k;
  const L = new Links();
  for (let a = 0; a < p; a++) {
    L.add(`host${a}->leaf${Math.floor(a / k)}`, bw, lat);
    L.add(`leaf${Math.floor(a / k)}->host${a}`, bw, lat);
  }
  for (let l = 0; l < leaves; l++) {
    L.add(`leaf${l}->spine`, (k * bw) / oversub, lat);
    L.add(`spine->leaf${l}`, (k * bw) / oversub, lat);
  }
  return L.build(`fat-tree:${leaves}x${k},oversub=${oversub}`, p, 4, (a, b) => {
    const la = Math.floor(a / k),
      lb = Math.floor(b / k);
    return la === lb ? [2 * a, 2 * b + 1] : [2 * a, 2 * p + 2 * la, 2 * p + 2 * lb + 1, 2 * b + 1];
  });
}

/**
 * A 1D ring of p switches, host i on switch i: host links (up 4i, down 4i + 1), ring links
 * clockwise sw i -> sw i+1 (4i + 2) and counter-clockwise sw i -> sw i-1 (4i + 3); shortest way,
 * clockwise on a tie. Every link has bandwidth bw and latency lat.
 */
export function ring(p: number, bw: number, lat: number): NetworkRoutes {
  const L = new Links();
  for (let i = 0; i < p; i++) {
    L.add(`host${i}->sw${i}`, bw, lat);
    L.add(`sw${i}->host${i}`, bw, lat);
    L.add(`sw${i}->sw${(i + 1) % p}`, bw, lat);
    L.add(`sw${i}->sw${(i + p - 1) % p}`, bw, lat);
  }
  return L.build(`ring:${p}`, p, 2 + Math.floor(p / 2), (a, b) => {
    const cw = (b - a + p) % p;
    const r = [4 * a];
    if (cw <= p - cw) for (let i = 0; i < cw; i++) r.push(4 * ((a + i) % p) + 2);
    else for (let i = 0; i < p - cw; i++) r.push(4 * ((a - i + p) % p) + 3);
    r.push(4 * b + 1);
    return r;
  });
}

/** The same network with every bandwidth replaced by `bw` (e.g. Infinity). */
export function withBandwidth(net: NetworkRoutes, bw: number): NetworkRoutes {
  return { ...net, bandwidth: new Float64Array(net.links).fill(bw), linkLabel: net.linkLabel, route: net.route };
}
