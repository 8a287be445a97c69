/**
 * Every command the docs tell a developer to type in a clone must work as written there. The
 * blocks meant for a clone are marked: an HTML comment `<!-- runs-in-clone -->` right before a
 * ```sh block, in README.md or docs/*.md. Each line of such a block runs in the repository root
 * (after the build, as the docs say) and must exit 0. Only commands without side effects belong
 * there; a line that is not one of the known harmless forms fails the test instead of running.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

/** The repository root, seen from dist/test/unit/docs/. */
const ROOT = new URL('../../../../', import.meta.url);
const MARKER = '<!-- runs-in-clone -->';

/** A shipped binary through npx, printing or converting only (no broker, no hardware, no writes). */
const HARMLESS =
  /^npx ctl-mqtt(-gpio|-adc|-console)? (--help|--version|--print-schema|-c examples\/\S+ --system-config-dir examples\/board\/\S+ -[jJ])$/;

interface CloneCommand {
  where: string;
  line: string;
}

function markdownFiles(): string[] {
  const docs = readdirSync(new URL('docs/', ROOT)).filter((name) => name.endsWith('.md'));
  return ['README.md', ...docs.map((name) => `docs/${name}`)];
}

/** The lines of every marked block, each with the file:line it comes from. */
function cloneCommands(): CloneCommand[] {
  const commands: CloneCommand[] = [];
  for (const file of markdownFiles()) {
    const lines = readFileSync(new URL(file, ROOT), 'utf8').split('\n');
    lines.forEach((text, index) => {
      if (text.trim() !== MARKER) return;
      let open = index + 1;
      while (open < lines.length && lines[open]!.trim() === '') open++;
      assert.equal(lines[open], '```sh', `${file}:${index + 1}: ${MARKER} must come right before a \`\`\`sh block`);
      for (let at = open + 1; at < lines.length && lines[at] !== '```'; at++) {
        const line = lines[at]!.trim();
        if (line !== '' && !line.startsWith('#')) commands.push({ where: `${file}:${at + 1}`, line });
      }
    });
  }
  return commands;
}

/**
 * Runs one line as typed at a terminal: nothing piped in (stdin is /dev/null, which `-j` reads as
 * "no input", so it reads the `-c` file), output collected, killed after 30 s.
 */
function run(line: string): Promise<{ code: number | null; stderr: string }> {
  const [command, ...args] = line.split(/\s+/);
  return new Promise((resolve) => {
    const child = spawn(command!, args, { cwd: fileURLToPath(ROOT), stdio: ['ignore', 'ignore', 'pipe'], timeout: 30_000 });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (err) => resolve({ code: null, stderr: err.message }));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const commands = cloneCommands();

test('README and docs mark the commands a clone runs, each a harmless form', () => {
  const files = new Set(commands.map((c) => c.where.split(':')[0]));
  for (const file of ['README.md', 'docs/command-line.md', 'docs/configuring.md'])
    assert.ok(files.has(file), `${file} has no ${MARKER} block`);
  for (const { where, line } of commands) assert.match(line, HARMLESS, `${where}: not a command the test may run: ${line}`);
});

test('every marked command works as written in a clone', async () => {
  // Each distinct line once, two at a time: npx costs most of a second of CPU per call.
  const lines = [...new Set(commands.map((c) => c.line).filter((line) => HARMLESS.test(line)))];
  const failures: string[] = [];
  const worker = async (): Promise<void> => {
    for (let line = lines.shift(); line !== undefined; line = lines.shift()) {
      const { code, stderr } = await run(line);
      const where = commands.filter((c) => c.line === line).map((c) => c.where);
      if (code !== 0) failures.push(`${where.join(', ')}: exit ${code}: ${line}\n${stderr.split('\n').slice(0, 3).join('\n')}`);
    }
  };
  await Promise.all([worker(), worker()]);
  assert.deepEqual(failures, []);
});
