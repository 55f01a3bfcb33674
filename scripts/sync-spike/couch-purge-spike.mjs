// The issue-33 spike: sealed records through the CouchDB replication protocol (PouchDB clients, a CouchDB-protocol
// server on loopback), a conflict, one record deleted, the engine's compaction and purge asked for, then every file of
// the server and of both clients read raw for the deleted record's ciphertexts, a kept record's ciphertext (the control
// that proves the scan finds ciphertext at all) and the plaintext. PouchDB comes from npm, outside the repository:
//   node couch-purge-spike.mjs SERVER_URL SERVER_DATA_DIR CLIENT_DIR run
//   (stop the server) node couch-purge-spike.mjs SERVER_URL SERVER_DATA_DIR CLIENT_DIR compact-rescan
// SERVER_URL like http://127.0.0.1:5985; the clients are pouchdb-node (LevelDB) under CLIENT_DIR/a and CLIENT_DIR/b.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(join(process.cwd(), 'x.js'))
const [serverUrl, serverDir, clientDir, phase = 'run'] = process.argv.slice(2)
// The needles are kept beside CLIENT_DIR, never inside a scanned folder.
const needlesFile = join(dirname(clientDir), 'spike-needles.json')
const places = [
  ['server', serverDir],
  ['client a', join(clientDir, 'a')],
  ['client b', join(clientDir, 'b')],
]

if (phase === 'compact-rescan') {
  await compactLevelDBs()
  const needles = JSON.parse(readFileSync(needlesFile, 'utf8'))
  for (const [name, dir] of places) console.log(name, 'after LevelDB compactRange', JSON.stringify(scan(dir, needles)))
} else {
  const needles = await run()
  writeFileSync(needlesFile, JSON.stringify(needles))
  for (const [name, dir] of places) console.log(name, JSON.stringify(scan(dir, needles)))
}

async function run() {
  const PouchDB = require('pouchdb-node')
  const remote = new PouchDB(`${serverUrl}/memory`)
  const clients = { a: new PouchDB(join(clientDir, 'a')), b: new PouchDB(join(clientDir, 'b')) }
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt'])
  const idKey = await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const b64 = (bytes) => Buffer.from(bytes).toString('base64')

  /** A record as it leaves the device: an opaque id (HMAC of the message id) and the sealed message, nothing else. */
  async function sealedDoc(messageId, text) {
    const mac = new Uint8Array(await crypto.subtle.sign('HMAC', idKey, new TextEncoder().encode(messageId)))
    const _id = `m-${b64(mac).slice(0, 22).replaceAll('/', '_').replaceAll('+', '-')}`
    const iv = crypto.getRandomValues(new Uint8Array(12))
    const plain = new TextEncoder().encode(JSON.stringify({ role: 'user', content: text, conversationTitle: 'T' }))
    const aad = new TextEncoder().encode(_id)
    const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad }, key, plain))
    return { _id, s: b64(new Uint8Array([...iv, ...sealed])) }
  }
  const marker = (n) => `PLAINTEXT-MARKER-${n}-my-address-is-12-elm-street`
  const sync = async (db) => db.sync(remote)

  const docs = {}
  for (const [name, range] of [
    ['a', [0, 1, 2]],
    ['b', [3, 4, 5]],
  ]) {
    for (const n of range) {
      docs[n] = await sealedDoc(`msg-${n}`, marker(n))
      await clients[name].put(docs[n])
    }
  }
  await sync(clients.a)
  await sync(clients.b)
  await sync(clients.a)
  // A concurrent edit of record 1 on both devices while apart: a conflict, two leaf revisions.
  const onA = await clients.a.get(docs[1]._id)
  const onB = await clients.b.get(docs[1]._id)
  await clients.a.put({ ...onA, s: (await sealedDoc('msg-1', marker('1a'))).s })
  await clients.b.put({ ...onB, s: (await sealedDoc('msg-1', marker('1b'))).s })
  await sync(clients.a)
  await sync(clients.b)
  await sync(clients.a)
  const conflicted = await remote.get(docs[1]._id, { conflicts: true })
  console.log('record 1 after concurrent edits: winner', conflicted._rev, 'conflicts', conflicted._conflicts)
  const loser = await remote.get(docs[1]._id, { rev: conflicted._conflicts[0] })
  const leaves = [conflicted._rev, ...conflicted._conflicts]

  // Forget record 1: delete every leaf (the winner and each conflict) on device A, then sync both ways.
  for (const rev of leaves) await clients.a.remove(docs[1]._id, rev)
  await sync(clients.a)
  await sync(clients.b)
  const onBNow = await clients.b.get(docs[1]._id).then(
    () => 'present',
    (e) => e.reason ?? e.message,
  )
  console.log('record 1 on B after sync:', onBNow)

  // The engine's own clean-up: compaction everywhere, then purge where the engine offers it.
  await remote.compact()
  await clients.a.compact()
  await clients.b.compact()
  for (const rev of leaves) {
    const old = await remote.get(docs[1]._id, { rev }).then(
      (d) => (d.s ? 'body still served' : 'no body'),
      (e) => e.reason ?? e.message,
    )
    console.log(`server API, old leaf ${rev.slice(0, 10)} after compaction:`, old)
  }
  const purge = await fetch(`${serverUrl}/memory/_purge`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ [docs[1]._id]: leaves }),
  })
  console.log('server POST /memory/_purge:', purge.status, (await purge.text()).trim().slice(0, 120))
  for (const [name, db] of Object.entries(clients)) {
    const [tombstone] = await db.get(docs[1]._id, { open_revs: 'all' })
    await db.purge(docs[1]._id, tombstone.ok._rev).then(
      () => console.log(`client ${name} (leveldb adapter) purge: ok`),
      (e) => console.log(`client ${name} (leveldb adapter) purge:`, e.message),
    )
  }
  const kept = await remote.get(docs[1]._id, { revs: true, open_revs: 'all' })
  console.log('server keeps for record 1:', JSON.stringify(kept[0].ok))
  for (const db of [remote, clients.a, clients.b]) await db.close()
  return {
    'deleted record, first sealing': docs[1].s,
    'deleted record, winning edit': conflicted.s,
    'deleted record, conflicting edit': loser.s,
    'kept record 4 (control)': docs[4].s,
    'plaintext marker': 'PLAINTEXT-MARKER',
    'plaintext title field': 'conversationTitle',
  }
}

/** Every file under `dir`, read raw, searched for each needle: a short one whole, a long one as three 24-character
 * pieces (a block compressor in the storage could split a long string; it cannot hide every piece). */
function scan(dir, needles) {
  const files = []
  const walk = (d) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f)
      if (statSync(p).isDirectory()) walk(p)
      else files.push(p)
    }
  }
  walk(dir)
  const blob = Buffer.concat(files.map((f) => readFileSync(f)))
  return Object.fromEntries(
    Object.entries(needles).map(([what, needle]) => {
      const pieces = needle.length < 64 ? [needle] : [needle.slice(0, 24), needle.slice(40, 64), needle.slice(-24)]
      return [what, `${pieces.filter((p) => blob.includes(p)).length}/${pieces.length} found`]
    }),
  )
}

/** LevelDB, under both PouchDB Server and pouchdb-node, keeps overwritten and deleted values in its log and tables
 * until it compacts them: compact each one whole (the server stopped: LevelDB takes a lock). */
async function compactLevelDBs() {
  const leveldown = require('leveldown')
  const isLevelDB = (p) => statSync(p).isDirectory() && readdirSync(p).includes('CURRENT')
  for (const [, dir] of places) {
    const paths = isLevelDB(dir)
      ? [dir]
      : readdirSync(dir)
          .map((f) => join(dir, f))
          .filter(isLevelDB)
    for (const path of paths) {
      const db = leveldown(path)
      await new Promise((resolve, reject) => db.open((e) => (e ? reject(e) : resolve())))
      await new Promise((resolve, reject) => db.compactRange('\u0000', '\uffff', (e) => (e ? reject(e) : resolve())))
      await new Promise((resolve) => db.close(resolve))
      console.log('compacted', path)
    }
  }
}
