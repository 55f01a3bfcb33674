// Launches headless Chromium the way the browser tests and the browser benchmark need it.
import { chromium, type Browser } from 'playwright-core'
import { chromiumArgs, findChromium, webgpuArgs } from './find-chromium'

/** `webgpu: true` adds `--enable-unsafe-webgpu`; without it Chromium on a GPU-less Linux offers no WebGPU adapter. */
export async function launchChromium({ webgpu }: { webgpu: boolean }): Promise<Browser> {
  const executablePath = findChromium()
  if (!executablePath)
    throw new Error('No Chromium found; install it (Debian: apt-get install -y chromium) or set CHROME_PATH.')
  return chromium.launch({
    executablePath,
    headless: true,
    args: webgpu ? [...chromiumArgs, ...webgpuArgs] : chromiumArgs,
  })
}
