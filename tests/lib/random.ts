// The seeded generator lives with the runtime's testing tools (the network simulator uses it too).
export { Random, seededRandom } from '../../runtime/testing/random.js';
