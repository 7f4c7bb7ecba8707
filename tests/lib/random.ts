// The seeded generator lives with the network simulator, its main user.
export { Random, seededRandom } from '../../runtime/network/simulator/random.js';
