// What a match's page holds of it, kept up to date from the server's
// messages (docs/server.md, "WebSocket"): a whole state ("state") gives the
// document — the summary ("match"), the viewer's seat ("you"), its view,
// its legal commands, how many log records it has seen ("log"), the state
// hash and its deadline —; each later change comes as a delta: the new log
// entries and a patch of what changed in the document. Messages are
// numbered: a delta that does not follow the last message is a gap, and
// the page asks for a whole state again.
//
// This module knows no page: match.js feeds it the messages, and the tests
// run it alone.

export class MatchState {
  constructor() {
    // doc is the document, null until a whole state came; n the number of
    // the last message applied.
    this.doc = null;
    this.n = 0;
  }

  // take applies a "state" or "delta" message and returns what the page
  // shows: the whole state as a "state" message would carry it, with the
  // message's new entries. It returns null when the message cannot be
  // applied (a delta after a gap, or before any whole state): the page
  // then asks for a whole state, and deltas are ignored until it comes.
  take(msg) {
    if (msg.type === "state") {
      const { type, n, entries, ...doc } = msg;
      this.doc = doc;
      this.n = n || 0;
    } else if (msg.type === "delta") {
      if (this.doc === null || msg.n !== this.n + 1) {
        this.doc = null;
        return null;
      }
      this.doc = applyPatch(this.doc, msg.patch || []);
      this.n = msg.n;
    } else {
      return null;
    }
    return { type: "state", n: this.n, ...this.doc, entries: msg.entries || [] };
  }
}

// applyPatch returns the document with the patch's operations applied, in
// order: [pointer, value] sets a value (a member, an array's element, or
// one past its last: added), [pointer] removes one (an array's element
// goes with those after it). The document is not changed: what an
// operation changes is copied, once, and everything else is shared, so
// that what a page showed before stays as it was.
export function applyPatch(doc, patch) {
  const copies = new Set();
  const own = (v) => {
    if (copies.has(v)) return v;
    const c = Array.isArray(v) ? v.slice() : { ...v };
    copies.add(c);
    return c;
  };
  const root = own(doc);
  for (const op of patch) {
    const keys = op[0].split("/").slice(1).map((k) => k.replaceAll("~1", "/").replaceAll("~0", "~"));
    let node = root;
    for (const k of keys.slice(0, -1)) {
      const i = Array.isArray(node) ? Number(k) : k;
      node[i] = own(node[i]);
      node = node[i];
    }
    const last = keys[keys.length - 1];
    if (Array.isArray(node)) {
      const i = Number(last);
      if (op.length > 1) node[i] = op[1];
      else node.length = i;
    } else if (op.length > 1) {
      node[last] = op[1];
    } else {
      delete node[last];
    }
  }
  return root;
}
