// Builds the demo once and serves dist-demo/ on a free localhost port for every e2e test file; a second server
// serves the same files with the in-page error hook first in each page (e2e/browsers/page-hook.ts), for the tests
// that run in engines whose driver gives no console.
import type { TestProject } from 'vitest/node'
import { buildDemo, demoOutDir } from '../scripts/demo-build'
import { startStaticServer } from '../scripts/static-server'
import { hookedSite } from './browsers/page-hook'

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string
    /** The demo with the in-page error hook (e2e/browsers/page-hook.ts). */
    hookedBaseUrl: string
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await buildDemo()
  const server = await startStaticServer({ root: demoOutDir, port: 0 })
  const hooked = await hookedSite(demoOutDir)
  const hookedServer = await startStaticServer({ root: hooked.root, port: 0 })
  project.provide('baseUrl', server.url)
  project.provide('hookedBaseUrl', hookedServer.url)
  return async () => {
    await Promise.all([server.close(), hookedServer.close()])
    await hooked.remove()
  }
}
