import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SampleLanguage } from '../../../app/docs/samples.server.js';

/** What a sample's last HTTP request answered, as the sample's own client received it. */
export interface SampleOutcome {
  status: number | null;
  /** Names in lower case. */
  headers: Record<string, string>;
  body: string;
  stdout: string;
  stderr: string;
  exitCode: number | null;
}

export interface SampleContext {
  /** Where the sample runs: its files (`-d @event.json`) and the answer's record. */
  directory: string;
  /** API_KEY and the variables the page's earlier samples saved. */
  variables: Record<string, string>;
  /** The page's setup blocks of this language so far, run before the sample. */
  setup: string[];
}

const SAMPLE_TIMEOUT_MS = 30_000;

/*
 * Each language records the last answer its client received in three files (status, headers, body) without
 * changing what the sample does: curl through a shell function of the same name that adds -sS and
 * the output capture, JavaScript through a wrapper of fetch, Python through requests' Session.
 */
const SHELL_RECORDER = `curl() {
  command curl -sS -o "$DOCS_SAMPLE_BODY" -D "$DOCS_SAMPLE_HEADERS" -w '%{http_code}' "$@" > "$DOCS_SAMPLE_STATUS"
  local code=$?
  cat "$DOCS_SAMPLE_BODY"
  return $code
}
`;

const JAVASCRIPT_RECORDER = `import { writeFileSync as docsSampleWrite } from 'node:fs';
const docsSampleFetch = globalThis.fetch;
globalThis.fetch = async (...args) => {
  const response = await docsSampleFetch(...args);
  docsSampleWrite(process.env.DOCS_SAMPLE_STATUS, String(response.status));
  docsSampleWrite(process.env.DOCS_SAMPLE_HEADERS, JSON.stringify(Object.fromEntries(response.headers)));
  docsSampleWrite(process.env.DOCS_SAMPLE_BODY, await response.clone().text());
  return response;
};
`;

const PYTHON_RECORDER = `import json as _docs_json
import os as _docs_os
import requests as _docs_requests

_docs_request = _docs_requests.Session.request


def _docs_record(self, *args, **kwargs):
    response = _docs_request(self, *args, **kwargs)
    with open(_docs_os.environ["DOCS_SAMPLE_STATUS"], "w") as status:
        status.write(str(response.status_code))
    with open(_docs_os.environ["DOCS_SAMPLE_HEADERS"], "w") as headers:
        _docs_json.dump(dict(response.headers), headers)
    with open(_docs_os.environ["DOCS_SAMPLE_BODY"], "w", encoding="utf-8") as body:
        body.write(response.text)
    return response


_docs_requests.Session.request = _docs_record
`;

/*
 * The SDK's samples are TypeScript, run by Node's type stripping (Node 24), with the package installed
 * beside them (see sdkPackage.ts); the client sends through the global fetch, which the recorder wraps.
 */
const RUNTIMES: Record<SampleLanguage, { file: string; command: string; recorder: string }> = {
  shell: { file: 'sample.sh', command: 'bash', recorder: SHELL_RECORDER },
  javascript: { file: 'sample.mjs', command: 'node', recorder: JAVASCRIPT_RECORDER },
  python: { file: 'sample.py', command: 'python3', recorder: PYTHON_RECORDER },
  sdk: { file: 'sample.mts', command: 'node', recorder: JAVASCRIPT_RECORDER },
};

/** Runs a command without a shell; never rejects (a failure is in the outcome). */
export function runProcess(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
) {
  return new Promise<{ stdout: string; stderr: string; exitCode: number | null }>((resolve) => {
    // Asynchronous on purpose: the server under test answers from this very process.
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? SAMPLE_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ stdout, stderr: `${stderr}${error.message}`, exitCode: null });
    });
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, exitCode });
    });
  });
}

/**
 * The headers of the last answer: JSON from JavaScript and Python, curl's header dump from the shell
 * (its last block: the answer after any interim one).
 */
function headersOf(raw: string): Record<string, string> {
  if (raw.trim() === '') return {};
  if (raw.trimStart().startsWith('{')) {
    const parsed = JSON.parse(raw) as Record<string, string>;
    return Object.fromEntries(Object.entries(parsed).map(([name, value]) => [name.toLowerCase(), value]));
  }
  const blocks = raw.split(/\r?\n\r?\n/).filter((block) => block.trim() !== '');
  const headers: Record<string, string> = {};
  for (const line of (blocks.at(-1) ?? '').split(/\r?\n/).slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** curl -i puts the headers before the body: the body is what follows the last header block. */
function bodyOf(raw: string): string {
  if (!raw.startsWith('HTTP/')) return raw;
  const blocks = raw.split(/\r?\n\r?\n/);
  const firstBody = blocks.findIndex((block) => !block.startsWith('HTTP/'));
  return firstBody === -1 ? '' : blocks.slice(firstBody).join('\n\n');
}

export async function runSample(
  language: SampleLanguage,
  code: string,
  context: SampleContext,
): Promise<SampleOutcome> {
  const runtime = RUNTIMES[language];
  const statusFile = join(context.directory, '.status');
  const bodyFile = join(context.directory, '.body');
  const headersFile = join(context.directory, '.headers');
  for (const file of [statusFile, bodyFile, headersFile]) writeFileSync(file, '');
  const script = [runtime.recorder, ...context.setup, code].join('\n');
  writeFileSync(join(context.directory, runtime.file), script);
  const { stdout, stderr, exitCode } = await runProcess(runtime.command, [runtime.file], {
    cwd: context.directory,
    env: {
      ...process.env,
      ...context.variables,
      DOCS_SAMPLE_STATUS: statusFile,
      DOCS_SAMPLE_HEADERS: headersFile,
      DOCS_SAMPLE_BODY: bodyFile,
    },
  });
  const recordedStatus = existsSync(statusFile) ? readFileSync(statusFile, 'utf8').trim() : '';
  return {
    status: /^\d{3}$/.test(recordedStatus) && recordedStatus !== '000' ? Number(recordedStatus) : null,
    headers: existsSync(headersFile) ? headersOf(readFileSync(headersFile, 'utf8')) : {},
    body: existsSync(bodyFile) ? bodyOf(readFileSync(bodyFile, 'utf8')) : '',
    stdout,
    stderr,
    exitCode,
  };
}
