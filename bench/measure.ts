// Times competing implementations in the same run, interleaved, so a noisy shared machine affects them alike.

export interface Contender {
  readonly name: string;
  /** Runs one operation on input `index`; the result is kept so the work cannot be optimised away. */
  readonly run: (index: number) => unknown;
}

export interface Throughput {
  readonly name: string;
  /** Operations per second: the median over the rounds. */
  readonly perSecond: number;
}

export function compareThroughput(contenders: readonly Contender[], inputs: number, { rounds = 7, minimumMs = 300 } = {}): Throughput[] {
  const samples = contenders.map(() => [] as number[]);
  let sink = 0;
  for (const contender of contenders) for (let index = 0; index < inputs; index++) sink ^= Number(Boolean(contender.run(index)));
  for (let round = 0; round < rounds; round++) {
    contenders.forEach((contender, which) => {
      let operations = 0;
      const started = process.hrtime.bigint();
      let elapsed = 0;
      do {
        for (let index = 0; index < inputs; index++) sink ^= Number(Boolean(contender.run(index)));
        operations += inputs;
        elapsed = Number(process.hrtime.bigint() - started) / 1e6;
      } while (elapsed < minimumMs);
      samples[which]!.push((operations / elapsed) * 1000);
    });
  }
  if (sink === 2) console.log("");
  return contenders.map((contender, which) => ({ name: contender.name, perSecond: median(samples[which]!) }));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export function formatRate(perSecond: number): string {
  return `${Math.round(perSecond).toLocaleString("en-US")}/s`;
}
