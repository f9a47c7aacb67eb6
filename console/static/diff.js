// Line diffs for the template editor's version comparison: Myers' O(ND)
// shortest edit script on lines, after the common head and tail are set
// aside, and the folding of unchanged runs around the changes.

// maxEdits bounds the edit distance searched: two texts further apart than
// that show as all of one removed and all of the other added, instead of
// costing the browser seconds and memory quadratic in the distance.
const maxEdits = 2000;

// diffLines answers the edit script turning lines a into lines b, as
// [op, line] pairs in order: ' ' kept, '-' removed (from a), '+' added
// (from b). Removals come before additions where both are as short.
export function diffLines(a, b) {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const same = (l) => [' ', l];
  const mid = myers(a.slice(head, a.length - tail), b.slice(head, b.length - tail));
  return [...a.slice(0, head).map(same), ...mid, ...a.slice(a.length - tail).map(same)];
}

function myers(a, b) {
  const n = a.length, m = b.length;
  if (n === 0) return b.map(l => ['+', l]);
  if (m === 0) return a.map(l => ['-', l]);
  const max = Math.min(n + m, maxEdits);
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  // trace[d] keeps v[-d..d] as it was before step d, for the walk back.
  const trace = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(off - d, off + d + 1));
    for (let k = -d; k <= d; k += 2) {
      let x = (k === -d || (k !== d && v[off + k - 1] < v[off + k + 1])) ? v[off + k + 1] : v[off + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) { x++; y++; }
      v[off + k] = x;
      if (x >= n && y >= m) return walkBack(trace, a, b, d);
    }
  }
  return [...a.map(l => ['-', l]), ...b.map(l => ['+', l])];
}

// walkBack follows the furthest-reaching paths from the end to the start.
function walkBack(trace, a, b, D) {
  const out = [];
  let x = a.length, y = b.length;
  for (let d = D; d > 0; d--) {
    const vd = trace[d];
    const at = (k) => vd[k + d];
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const pk = down ? k + 1 : k - 1;
    const px = at(pk), py = px - pk;
    const sx = down ? px : px + 1; // where the edit left off, before the snake
    while (x > sx) { out.push([' ', a[x - 1]]); x--; y--; }
    if (down) out.push(['+', b[py]]);
    else out.push(['-', a[px]]);
    x = px; y = py;
  }
  while (x > 0) { out.push([' ', a[x - 1]]); x--; y--; }
  return out.reverse();
}

// collapse folds runs of kept lines longer than 2*context+1 (or context+1
// at either end) into {skip: [...lines]}, keeping context lines beside each
// change; the other entries are the ops as they were.
export function collapse(ops, context = 3) {
  const out = [];
  let i = 0;
  while (i < ops.length) {
    if (ops[i][0] !== ' ') { out.push(ops[i++]); continue; }
    let j = i;
    while (j < ops.length && ops[j][0] === ' ') j++;
    const run = ops.slice(i, j);
    const keepHead = i === 0 ? 0 : context;
    const keepTail = j === ops.length ? 0 : context;
    if (run.length > keepHead + keepTail + 1) {
      out.push(...run.slice(0, keepHead));
      out.push({ skip: run.slice(keepHead, run.length - keepTail) });
      out.push(...run.slice(run.length - keepTail));
    } else out.push(...run);
    i = j;
  }
  return out;
}
