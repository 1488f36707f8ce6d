// A growable Float32Array: geometry is written straight into typed memory, never into arrays of
// JS numbers (a large drawing would need gigabytes for those).

/** A growable float32 array. */
export class Floats {
  data: Float32Array;
  length = 0;
  constructor(capacity = 256) {
    this.data = new Float32Array(capacity);
  }
  reserve(n: number): void {
    if (this.length + n <= this.data.length) return;
    let size = this.data.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Float32Array(size);
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
  /** The filled part, in a buffer of its own size (what is transferred). */
  done(): Float32Array {
    return this.length === this.data.length ? this.data : this.data.slice(0, this.length);
  }
}
