// A stand-in for navigator.locks in Node tests (Node has no Web Locks).

/**
 * A lock manager that grants an exclusive lock of a name to one request
 * at a time, in the order asked, holding it until the promise the
 * callback returns settles (as navigator.locks.request does). refuse:
 * requests reject with that error instead.
 */
export class FakeLocks {
  constructor(refuse = null) {
    this.tails = new Map();
    this.refuse = refuse;
    this.grants = [];
  }

  request(name, callback) {
    if (this.refuse) return Promise.reject(this.refuse);
    const before = this.tails.get(name) ?? Promise.resolve();
    const held = before.then(() => callback({ name }));
    this.tails.set(name, held.catch(() => {}));
    return held;
  }
}
