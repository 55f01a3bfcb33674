// PouchDB's packages ship no types; sync-link.ts describes the parts it calls (`PouchConstructor`).
declare module 'pouchdb-core'
declare module 'pouchdb-adapter-http'
declare module 'pouchdb-replication'
declare module 'pouchdb-adapter-indexeddb'
declare module 'pouchdb-adapter-memory'
