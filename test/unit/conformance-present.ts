// Vitest global setup: the conformance tests read the reference cases from ../shared/conformance/, beside the
// repository (not in it). Without them, fifteen test files failed each with an ENOENT deep in a helper; this says
// once, first, what is missing and where it was looked for.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/conformance');
  if (!existsSync(path.join(dir, 'agentscope', 'cases')) || !existsSync(path.join(dir, 'pi', 'cases'))) {
    throw new Error(`The conformance cases are not at ${dir} (agentscope/cases and pi/cases): the unit tests compare ` +
      'the reconstruction with them. Put the shared folder beside the repository (see README, Quick start).');
  }
}
