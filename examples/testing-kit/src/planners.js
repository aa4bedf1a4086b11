// Two planners written without commplan's builder: they return the plain commplan.schedule/v1 JSON
// (header fields left out, payload chunks on every transfer so that the verifier follows each element).

/** The message i -> j as a transfer carrying all of its elements. */
const whole = (i, j, n) => ({ src: i, dst: j, size: n, chunks: [[i, j, 0, n]] });

/** A correct direct planner: in step k every node i sends its message to (i + k) mod P, one send and one receive per node. */
export function shiftPlanner({ p, data }) {
  const steps = [];
  for (let k = 1; k < p; k++) {
    const transfers = [];
    for (let i = 0; i < p; i++) {
      const j = (i + k) % p;
      if (data[i * p + j] > 0) transfers.push(whole(i, j, data[i * p + j]));
    }
    if (transfers.length > 0) steps.push({ transfers });
  }
  return { algorithm: "example-shift", stages: [{ name: "shift", steps }] };
}

/**
 * A deliberately buggy planner: it fills each step greedily with messages whose sender is still
 * free in that step, and forgets to check that the receiver is free too, so two senders can meet at
 * one receiver (node contention, 003 sec 2.1).
 */
export function greedyPlanner({ p, data }) {
  const steps = [];
  const todo = [];
  for (let i = 0; i < p; i++) for (let j = 0; j < p; j++) if (i !== j && data[i * p + j] > 0) todo.push([i, j]);
  while (todo.length > 0) {
    const busy = new Set();
    const transfers = [];
    for (let x = 0; x < todo.length;) {
      const [i, j] = todo[x];
      if (busy.has(i)) {
        x++;
        continue;
      }
      busy.add(i); // the bug: the receiver j is not marked busy
      transfers.push(whole(i, j, data[i * p + j]));
      todo.splice(x, 1);
    }
    steps.push({ transfers });
  }
  return { algorithm: "example-greedy", stages: [{ name: "greedy", steps }] };
}
