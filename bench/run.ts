// `npm run bench`: every benchmark suite, one after another (they share two cores).
import { runSiteBench } from './site.bench';

const suites: Array<[string, () => Promise<boolean>]> = [['site (issue 2)', runSiteBench]];
let isAllMet = true;
for (const [name, suite] of suites) {
  console.log(`\n=== ${name} ===`);
  isAllMet = (await suite()) && isAllMet;
}
console.log(`\nAll targets ${isAllMet ? 'met' : 'NOT met'}.`);
