/** The x in [−12, 12] where an increasing function reaches `target`, by bisection. */
export function solveIncreasing(value: (x: number) => number, target: number): number {
  let low = -12;
  let high = 12;
  for (let step = 0; step < 80; step += 1) {
    const middle = (low + high) / 2;
    if (value(middle) < target) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}
