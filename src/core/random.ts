/**
 * A small seeded generator (sfc32) with Gaussians by Marsaglia's polar method: the same seed gives the
 * same numbers on every machine, so an index built twice from the same vectors is the same index.
 */
export class Rng {
  private a = 0x9e3779b9;
  private b = 0x243f6a88;
  private c = 0xb7e15162;
  private d: number;
  private spare = Number.NaN;

  constructor(seed: number) {
    this.d = seed >>> 0;
    for (let i = 0; i < 16; i++) this.u32();
  }

  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  uniform(): number {
    return this.u32() / 4294967296;
  }

  int(n: number): number {
    return Math.floor(this.uniform() * n);
  }

  gaussian(): number {
    if (!Number.isNaN(this.spare)) {
      const s = this.spare;
      this.spare = Number.NaN;
      return s;
    }
    let u: number;
    let v: number;
    let s: number;
    do {
      u = 2 * this.uniform() - 1;
      v = 2 * this.uniform() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const f = Math.sqrt((-2 * Math.log(s)) / s);
    this.spare = v * f;
    return u * f;
  }

  hex64(): string {
    return this.u32().toString(16).padStart(8, '0') + this.u32().toString(16).padStart(8, '0');
  }
}
