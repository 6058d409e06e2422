// Run first by `npm test`: names each program the tests need that this machine lacks, with what
// to do, and stops before anything runs. See the README, "Running the tests without apt".
import { missingTestTools } from '../test/support/test-tools.mjs';

const missing = missingTestTools();
if (missing.length > 0) {
  console.error(`The tests need ${missing.length === 1 ? 'a program' : 'programs'} this machine does not have:`);
  for (const line of missing) console.error(`  - ${line}`);
  console.error('On Debian or Ubuntu, `bash scripts/install-test-deps.sh` installs them all.');
  process.exit(1);
}
