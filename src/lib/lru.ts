// A small least-recently-used map: at most `max` entries, or `maxWeight` in all when entries
// weigh something (bytes of a blob). Map keeps insertion order, so the first key is the oldest.

export class Lru<K, V> {
  private map = new Map<K, V>();
  private weight = 0;

  constructor(private max: number, private weigh: (v: V) => number = () => 0, private maxWeight = Infinity) {}

  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: K, value: V): void {
    const old = this.map.get(key);
    if (old !== undefined) {
      this.weight -= this.weigh(old);
      this.map.delete(key);
    }
    this.map.set(key, value);
    this.weight += this.weigh(value);
    while (this.map.size > this.max || this.weight > this.maxWeight) {
      const [k, v] = this.map.entries().next().value as [K, V];
      this.map.delete(k);
      this.weight -= this.weigh(v);
    }
  }
}
