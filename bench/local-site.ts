/**
 * The bench's own copy of the site: a fresh build in a temporary folder, served by
 * bench/serve-dist.ts on a free port with a throwaway embedded database holding the demo data.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../scripts/free-port.ts';
import { root, stopProcessGroup, waitUntilAnswering } from './lib/child-server.ts';

export { root, stopProcessGroup, waitUntilAnswering };

export interface LocalSite {
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * A build of its own (a fresh `astro build` into a temporary folder, about 10 s) served by
 * bench/serve-dist.ts on a free port, with a throwaway embedded database holding the demo data.
 * Its own build means a rebuild of `dist/` by someone else mid-run cannot skew the figures.
 */
export async function startLocalSite(prebuilt?: string): Promise<LocalSite> {
  const port = await freePort();
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'cp-bench-'));
  const distDir = prebuilt ?? path.join(workDir, 'dist');
  const dataDir = path.join(workDir, 'data');
  // Always the embedded database: the bench must never write demo rows into a real one.
  const { DATABASE_URL: _url, NETLIFY_DATABASE_URL: _netlifyUrl, ...inherited } = process.env;
  const env = { ...inherited, PORT: String(port), DATA_DIR: dataDir };
  const tsx = path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  const astro = path.join(root, 'node_modules', 'astro', 'bin', 'astro.mjs');
  const cleanUp = () => rmSync(workDir, { recursive: true, force: true });

  if (prebuilt) {
    if (!existsSync(path.join(prebuilt, 'index.html'))) throw new Error(`${prebuilt} holds no built site (index.html)`);
  } else {
    console.log('Building the site into a temporary folder…');
    const build = spawnSync(process.execPath, [astro, 'build', '--outDir', distDir], {
      cwd: root,
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (build.status !== 0) {
      cleanUp();
      throw new Error('The site did not build; see the errors above');
    }
  }

  // The gallery's reviews carousel should measure with reviews in it, as on a live site.
  const seed = spawnSync(process.execPath, [tsx, 'db/seed.ts'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  if (seed.status !== 0) {
    cleanUp();
    throw new Error('Seeding the bench database failed');
  }

  const server = spawn(process.execPath, [tsx, 'bench/serve-dist.ts', distDir], {
    cwd: root,
    env,
    detached: true, // its own process group, stopped as one
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://localhost:${port}`;
  try {
    await waitUntilAnswering(`${baseUrl}/api/health`, server, 60_000);
  } catch (error) {
    await stopProcessGroup(server);
    cleanUp();
    throw error;
  }
  return {
    baseUrl,
    async stop() {
      await stopProcessGroup(server);
      cleanUp();
    },
  };
}
