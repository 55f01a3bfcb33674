// The device side of the issue-33 spike: PouchDB's `indexeddb` adapter (the one adapter with `purge`) in a real
// browser, syncing sealed records with a CouchDB-protocol server. A record is written, edited, replicated,
// deleted on every leaf; then compaction and purge run, and after each step every object store of the PouchDB
// database is read raw (through IndexedDB, as e2e/forget-proof.test.ts reads Sift's) for the deleted record's
// ciphertexts and a kept record's (the control). Bundled and run in Chromium by run-in-chromium.mjs (fake-indexeddb
// cannot run this adapter: it loses the transaction across PouchDB's ticks).
import PouchDB from 'pouchdb-core'
import indexeddb from 'pouchdb-adapter-indexeddb'
import http from 'pouchdb-adapter-http'
import replication from 'pouchdb-replication'

PouchDB.plugin(indexeddb).plugin(http).plugin(replication)
const lines = []
const console = { log: (...parts) => lines.push(parts.join(' ')) }
const serverUrl = location.origin
const name = `device-${Date.now()}`
const local = new PouchDB(name, { adapter: 'indexeddb' })
const remote = new PouchDB(`${serverUrl}/memory-idb-${Date.now()}`)

const random = (n) => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(n))))
const first = random(96)
const edited = random(96)
const kept = random(96)
const put1 = await local.put({ _id: 'doomed', s: first })
const put2 = await local.put({ _id: 'doomed', _rev: put1.rev, s: edited })
await local.put({ _id: 'kept', s: kept })
await local.sync(remote)
await local.remove('doomed', put2.rev)
await local.sync(remote)

/** Every record of every object store of the database, serialised, searched for each needle. */
async function rawScan(label) {
  const db = await new Promise((resolve, reject) => {
    const open = indexedDB.open(`_pouch_${name}`)
    open.onsuccess = () => resolve(open.result)
    open.onerror = () => reject(open.error)
  })
  let text = ''
  for (const storeName of db.objectStoreNames) {
    const rows = await new Promise((resolve) => {
      const request = db.transaction(storeName).objectStore(storeName).getAll()
      request.onsuccess = () => resolve(request.result)
    })
    text += JSON.stringify(rows)
  }
  db.close()
  const found = {
    'first sealing': text.includes(first),
    'edited sealing': text.includes(edited),
    'kept (control)': text.includes(kept),
  }
  console.log(label.padEnd(44), JSON.stringify(found), `stores: ${[...db.objectStoreNames].join(',')}`)
}

await rawScan('after delete + sync')
await local.compact()
await rawScan('after compact()')
const [tombstone] = await local.get('doomed', { open_revs: 'all' })
await local.purge('doomed', tombstone.ok._rev)
await rawScan('after purge() of the tombstone')
const onServer = await remote.get('doomed', { open_revs: 'all' })
console.log('server still holds the tombstone (not purged by a local purge):', JSON.stringify(onServer[0].ok))
await local.close()
window.spikeLines = lines
