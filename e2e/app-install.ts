// The package as an app gets it: `npm pack` in this repository, the tarball installed into a copy of an app folder
// outside the repository (so nothing resolves from this repository's node_modules), and the app's Vite run from
// there.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { cp, mkdtemp, readdir, readFile, stat } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { hookedSite } from './browsers/page-hook'

/** What `npm pack --json` reports of the tarball. */
export interface PackedPackage {
  tarball: string
  /** Bytes of the tarball, and of its files unpacked. */
  size: number
  unpackedSize: number
  files: string[]
}

/**
 * The environment without the `npm_*` variables `npm test` exports (this repository's .npmrc among them, such as
 * `onnxruntime-node-install=skip`): the app's npm reads only its own and the user's configuration, as a new user's does.
 * Nor vitest's `NODE_ENV=test`: the app's `vite build` would keep it, and bundle React's development build.
 */
export function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && name !== 'NODE_ENV'))
}

export function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, env: cleanEnv(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  if (result.status !== 0)
    throw new Error(
      `${command} ${args.join(' ')} (in ${cwd}) failed with ${result.status}:\n${result.stdout}\n${result.stderr}`,
    )
  return result.stdout
}

/** `npm pack` of `root` into `destination`: runs prepack (setup and the library build), as publishing does. */
export function pack(root: string, destination: string): PackedPackage {
  const [report] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', destination], root)) as {
    filename: string
    size: number
    unpackedSize: number
    files: { path: string }[]
  }[]
  return {
    tarball: join(destination, report.filename),
    size: report.size,
    unpackedSize: report.unpackedSize,
    files: report.files.map((file) => file.path),
  }
}

/**
 * A copy of `appDir` in a new temporary folder with `tarball` and the app's own dependencies installed from the
 * registry. `npmCache` persists between runs, so a later run downloads nothing it already has.
 */
export async function installApp(appDir: string, tarball: string, npmCache: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sift-app-'))
  await cp(appDir, dir, {
    recursive: true,
    filter: (source) => !/[\\/](node_modules|dist)$/.test(source) && !source.endsWith('.tgz'),
  })
  run('npm', ['install', tarball, '--cache', npmCache, '--prefer-offline', '--no-audit', '--no-fund'], dir)
  return dir
}

/** Packages in the app's lock file that have an install script (npm records `hasInstallScript`). */
export async function packagesWithInstallScripts(dir: string): Promise<string[]> {
  const lock = JSON.parse(await readFile(join(dir, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { hasInstallScript?: boolean }>
  }
  return Object.entries(lock.packages)
    .filter(([, entry]) => entry.hasInstallScript)
    .map(([path]) => path.replace(/^.*node_modules\//, ''))
}

/** Bytes of every file under `path`. */
export async function folderBytes(path: string): Promise<number> {
  let total = 0
  for (const entry of await readdir(path, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size
  }
  return total
}

export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** A Vite server of the app (`vite` or `vite preview`), ended by `close`. */
export interface AppServer {
  url: string
  close(): Promise<void>
}

/** Starts the app's own Vite (`args`: `[]` for the dev server, `['preview']`) on a free port, resolved once it answers. */
export async function startVite(dir: string, args: string[]): Promise<AppServer> {
  const port = await freePort()
  const child: ChildProcess = spawn(
    process.execPath,
    [
      join(dir, 'node_modules/vite/bin/vite.js'),
      ...args,
      '--port',
      String(port),
      '--strictPort',
      '--host',
      '127.0.0.1',
    ],
    {
      cwd: dir,
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let output = ''
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))
  const url = `http://localhost:${port}`
  const close = async () => {
    if (child.exitCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill()
    await exited
  }
  for (const deadline = Date.now() + 60_000; ; ) {
    if (child.exitCode !== null) throw new Error(`vite ${args.join(' ')} exited with ${child.exitCode}:\n${output}`)
    if ((await fetch(url).catch(() => undefined))?.ok) return { url, close }
    if (Date.now() > deadline) {
      await close()
      throw new Error(`vite ${args.join(' ')} did not answer on ${url} within 60 s:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

const built = new Set<string>()

/** `vite build` of the app in `dir`, once however many tests ask for it; returns its dist folder. */
export function buildApp(dir: string): string {
  if (!built.has(dir)) {
    run(process.execPath, [join(dir, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], dir)
    built.add(dir)
  }
  return join(dir, 'dist')
}

/**
 * `vite preview` of the app's build (`buildApp`) with the in-page error hook first in its HTML (e2e/browsers/page-hook.ts),
 * for engines whose driver gives no page console. The app's own Vite serves the hooked copy (`--outDir`), so its
 * responses are what the app's preview sends (the headers its config gives, isolation and its Content-Security-Policy,
 * and Vite's own caching), and the hook is a same-origin script, which those policies allow (the React example's nonce
 * policy keeps 'self').
 */
export async function startHookedPreview(dir: string): Promise<AppServer> {
  const site = await hookedSite(buildApp(dir))
  try {
    const server = await startVite(dir, ['preview', '--outDir', site.root])
    return {
      url: server.url,
      close: async () => {
        await server.close()
        await site.remove()
      },
    }
  } catch (error) {
    await site.remove()
    throw error
  }
}
