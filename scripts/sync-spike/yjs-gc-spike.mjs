// The Yjs part of the issue-33 spike: does a deleted map value's content survive (a) in the document's own encoding
// with gc on and (b) in what a server that stores the update log (y-leveldb, y-indexeddb before their trim) or merges
// it without a document holds? Run from a folder whose node_modules has yjs: node yjs-gc-spike.mjs
import { createRequire } from 'node:module'
import { join } from 'node:path'

const Y = createRequire(join(process.cwd(), 'x.js'))('yjs')
const sealed = (tag) => new TextEncoder().encode(`SEALED-${tag}-${'x'.repeat(40)}`)
const has = (bytes, tag) => Buffer.from(bytes).includes(Buffer.from(`SEALED-${tag}-`))
const log = []
const doc = new Y.Doc({ gc: true })
doc.on('update', (u) => log.push(u))
const map = doc.getMap('records')
map.set('m-1', sealed('doomed'))
map.set('m-2', sealed('kept'))
map.delete('m-1')
const state = Y.encodeStateAsUpdate(doc)
const merged = Y.mergeUpdates(log)
const fresh = new Y.Doc({ gc: true })
for (const u of log) Y.applyUpdate(fresh, u)
const reencoded = Y.encodeStateAsUpdate(fresh)
const noGc = new Y.Doc({ gc: false })
for (const u of log) Y.applyUpdate(noGc, u)
console.log(
  JSON.stringify(
    {
      'encodeStateAsUpdate, gc on': { doomed: has(state, 'doomed'), kept: has(state, 'kept'), bytes: state.length },
      'update log as stored (before a trim)': {
        doomed: log.some((u) => has(u, 'doomed')),
        kept: log.some((u) => has(u, 'kept')),
      },
      'Y.mergeUpdates(log) (no document)': { doomed: has(merged, 'doomed'), kept: has(merged, 'kept') },
      'log applied to a gc doc, re-encoded (a trim)': {
        doomed: has(reencoded, 'doomed'),
        kept: has(reencoded, 'kept'),
      },
      'log applied to a gc:false doc': { doomed: has(Y.encodeStateAsUpdate(noGc), 'doomed') },
    },
    null,
    1,
  ),
)
