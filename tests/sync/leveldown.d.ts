// leveldown ships no types; tests/sync/sync-server.ts describes what it calls (`LevelDown`).
declare module 'leveldown'
