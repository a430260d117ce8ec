/**
 * The signature-verification samples of "Authenticating our messages", each run on a real message
 * of the platform (a booking notification captured by a receiver): the valid message passes, a
 * tampered body and a wrong secret do not. JavaScript always runs; Python and PHP run where their
 * runtime is installed and are skipped, saying which, elsewhere.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CodeBlock, extractPageSamples } from '../../app/docs/samples.server.js';
import { findProjectRoot } from '../../server/portal.js';
import { runProcess } from './support/sampleRunner.js';
import { captureSignedMessage, type SignedMessage } from './support/signedMessage.js';

const PAGE = join('docs', 'pages', 'understanding-our-api', 'messaging-system', 'authenticating-our-messages.md');
const verifiers = extractPageSamples(readFileSync(join(findProjectRoot(), PAGE), 'utf8'), PAGE).verifiers;

/** Why a runtime cannot run here, or null when it can. */
function missing(command: string, args: string[], why: string): string | null {
  const probe = spawnSync(command, args, { encoding: 'utf8' });
  if (probe.error) return `${command} is not installed`;
  return probe.status === 0 ? null : why;
}

/*
 * Each harness reads the message from files and the environment, calls the page's function on the
 * valid message, on the body with one bit flipped, and with a wrong secret, and prints the three
 * answers as JSON.
 */
const LANGUAGES = [
  {
    name: 'JavaScript',
    languages: ['js', 'javascript'],
    file: 'verify.mjs',
    command: 'node',
    missing: null,
    harness: `
import { readFileSync as harnessRead } from 'node:fs';
const harnessBody = harnessRead(process.env.MESSAGE_BODY);
const harnessTampered = Buffer.from(harnessBody);
harnessTampered[harnessTampered.length - 2] ^= 1;
const { MESSAGE_SIGNATURE: harnessSignature, MESSAGE_SECRET: harnessSecret } = process.env;
console.log(JSON.stringify([
  verifySignature(harnessBody, harnessSignature, harnessSecret),
  verifySignature(harnessTampered, harnessSignature, harnessSecret),
  verifySignature(harnessBody, harnessSignature, harnessSecret + 'x'),
  verifySignature(harnessBody.toString('utf8'), harnessSignature, harnessSecret),
]));
`,
    wrap: (code: string, harness: string) => `${code}\n${harness}`,
    expected: [true, false, false, true],
  },
  {
    name: 'Python',
    languages: ['py', 'python'],
    file: 'verify.py',
    command: 'python3',
    missing: missing('python3', ['--version'], 'python3 does not run'),
    harness: `
import json as _harness_json
import os as _harness_os

with open(_harness_os.environ["MESSAGE_BODY"], "rb") as _harness_file:
    _harness_body = _harness_file.read()
_harness_tampered = bytearray(_harness_body)
_harness_tampered[-2] ^= 1
_harness_signature = _harness_os.environ["MESSAGE_SIGNATURE"]
_harness_secret = _harness_os.environ["MESSAGE_SECRET"]
print(_harness_json.dumps([
    verify_signature(_harness_body, _harness_signature, _harness_secret),
    verify_signature(bytes(_harness_tampered), _harness_signature, _harness_secret),
    verify_signature(_harness_body, _harness_signature, _harness_secret + "x"),
]))
`,
    wrap: (code: string, harness: string) => `${code}\n${harness}`,
    expected: [true, false, false],
  },
  {
    name: 'PHP',
    languages: ['php'],
    file: 'verify.php',
    command: 'php',
    missing: missing('php', ['--version'], 'php does not run'),
    harness: `
$harnessBody = file_get_contents(getenv('MESSAGE_BODY'));
$harnessTampered = $harnessBody;
$harnessTampered[strlen($harnessTampered) - 2] = chr(ord($harnessTampered[strlen($harnessTampered) - 2]) ^ 1);
$harnessSignature = getenv('MESSAGE_SIGNATURE');
$harnessSecret = getenv('MESSAGE_SECRET');
echo json_encode([
    verifySignature($harnessBody, $harnessSignature, $harnessSecret),
    verifySignature($harnessTampered, $harnessSignature, $harnessSecret),
    verifySignature($harnessBody, $harnessSignature, $harnessSecret . 'x'),
]), "\\n";
`,
    // The page's block opens PHP mode or not; the harness continues in it.
    wrap: (code: string, harness: string) =>
      `${code.trimStart().startsWith('<?php') ? '' : '<?php\n'}${code.replace(/\?>\s*$/, '')}\n${harness}`,
    expected: [true, false, false],
  },
] as const;

describe('the signature-verification samples', () => {
  let message: SignedMessage;
  let directory: string;
  beforeAll(async () => {
    message = await captureSignedMessage();
    directory = mkdtempSync(join(tmpdir(), 'docs-verify-'));
    writeFileSync(join(directory, 'message.json'), message.body);
  });
  afterAll(() => {
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  it('verify a real message of the platform: the receiver agreed with its signature', () => {
    expect(message.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(message.body.toString('utf8'))).toMatchObject({ action: 'BOOK', booking_quantity: 1 });
  });

  for (const language of LANGUAGES) {
    const block = (): CodeBlock | undefined =>
      verifiers.find((candidate) => (language.languages as readonly string[]).includes(candidate.language));
    it(`include one ${language.name} block marked verify`, () => {
      expect(
        verifiers.filter((candidate) => (language.languages as readonly string[]).includes(candidate.language)),
      ).toHaveLength(1);
    });
    it.skipIf(language.missing !== null)(
      `in ${language.name}: true for the message, false for a tampered body or a wrong secret${language.missing ? ` (skipped: ${language.missing})` : ''}`,
      async () => {
        const sample = block();
        expect(sample, `${PAGE}: no ${language.name} block marked verify`).toBeDefined();
        writeFileSync(join(directory, language.file), language.wrap(sample!.code, language.harness));
        const run = await runProcess(language.command, [language.file], {
          cwd: directory,
          env: {
            ...process.env,
            MESSAGE_BODY: join(directory, 'message.json'),
            MESSAGE_SIGNATURE: message.signature,
            MESSAGE_SECRET: message.secret,
          },
        });
        expect(run.exitCode, `${PAGE}:${sample!.line}: ${run.stderr}`).toBe(0);
        expect(JSON.parse(run.stdout.trim().split('\n').at(-1)!)).toEqual(language.expected);
      },
    );
  }
});
