import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findProjectRoot } from '../../../server/portal.js';
import { runProcess } from './sampleRunner.js';

const PACKAGE_NAME = '@culture-pass/provider-api-client';
/** Building the package (tsc, in npm's prepack) takes some seconds, more on a loaded machine. */
const PACK_TIMEOUT_MS = 240_000;

let installed: Promise<string> | undefined;
let packageRoot: string | undefined;

/**
 * The SDK as an integrator installs it from a checkout: `npm pack` in clients/typescript (which
 * builds it), the tarball unpacked into a node_modules beside its one dependency, openapi-fetch
 * (linked from the project's, the version the package pins). Made once per process.
 */
export function sdkNodeModules(): Promise<string> {
  installed ??= install();
  return installed;
}

/** Makes a directory's samples find the SDK package, as if it were installed there. */
export async function installSdkInto(directory: string): Promise<void> {
  symlinkSync(await sdkNodeModules(), join(directory, 'node_modules'), 'dir');
}

export function removeSdkPackage(): void {
  if (packageRoot) rmSync(packageRoot, { recursive: true, force: true });
}

async function install(): Promise<string> {
  const projectRoot = findProjectRoot();
  packageRoot = mkdtempSync(join(tmpdir(), 'sdk-package-'));
  const packed = await runProcess('npm', ['pack', '--json', '--pack-destination', packageRoot], {
    cwd: join(projectRoot, 'clients', 'typescript'),
    timeoutMs: PACK_TIMEOUT_MS,
  });
  if (packed.exitCode !== 0) throw new Error(`npm pack failed (${packed.exitCode}):\n${packed.stderr}`);
  const [{ filename }] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string }[];
  const nodeModules = join(packageRoot, 'node_modules');
  const target = join(nodeModules, ...PACKAGE_NAME.split('/'));
  mkdirSync(target, { recursive: true });
  const unpacked = await runProcess('tar', ['-xzf', join(packageRoot, filename), '-C', target, '--strip-components=1']);
  if (unpacked.exitCode !== 0) throw new Error(`tar failed (${unpacked.exitCode}):\n${unpacked.stderr}`);
  symlinkSync(join(projectRoot, 'node_modules', 'openapi-fetch'), join(nodeModules, 'openapi-fetch'), 'dir');
  return nodeModules;
}
