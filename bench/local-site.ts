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
  /** What `npm run db:seed` printed: the demo data's links (tracking, review), for pages that need one. */
  seedOutput?: string;
  /** The admin password this server accepts, for pages measured signed in. */
  adminPassword?: string;
  stop(): Promise<void>;
}

const BENCH_ADMIN_PASSWORD = 'bench-admin-password';

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
  // A known password without a second factor, so the bench can sign in like the admin.
  const { DATABASE_URL: _url, NETLIFY_DATABASE_URL: _netlifyUrl, ADMIN_PASSWORD_HASH: _hash, ADMIN_TOTP_SECRET: _totp, ...inherited } = process.env;
  const baseUrl = `http://localhost:${port}`;
  const env = { ...inherited, PORT: String(port), DATA_DIR: dataDir, SITE_URL: baseUrl, ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD };
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
  const seed = spawnSync(process.execPath, [tsx, 'db/seed.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
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
  try {
    await waitUntilAnswering(`${baseUrl}/api/health`, server, 60_000);
  } catch (error) {
    await stopProcessGroup(server);
    cleanUp();
    throw error;
  }
  return {
    baseUrl,
    seedOutput: seed.stdout,
    adminPassword: BENCH_ADMIN_PASSWORD,
    async stop() {
      await stopProcessGroup(server);
      cleanUp();
    },
  };
}
