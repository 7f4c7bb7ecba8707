import { FracpackError } from '../../host-api/fracpack/index.js';
import { HttpReply } from '../../host-api/types/index.js';
import type { SocketGrant, SocketHost, SocketOutcome, SocketReply } from './host-state.js';

const EBADF = 8;
const EINVAL = 28;

/**
 * One context's use of the sockets (docs/host-abi.md §3 socketSend / socketAutoClose). Replies
 * are data: they are recorded here and returned with the context's result, and the node writes
 * them. A socket is answerable while the node holds it open and this context has not replied
 * on it; the context owns the sockets it was given and those it takes with autoClose(on).
 */
export class ContextSockets implements SocketHost {
  private readonly replies: SocketReply[] = [];
  private readonly owned: Set<number>;

  constructor(private readonly grant: SocketGrant) {
    this.owned = new Set(grant.owned);
  }

  send(fd: number, data: Uint8Array): number {
    if (!this.isAnswerable(fd)) return EBADF;
    let reply: HttpReply;
    try {
      reply = HttpReply.unpack(data);
    } catch (err) {
      if (err instanceof FracpackError) return EINVAL;
      throw err;
    }
    this.replies.push({ socket: fd, reply });
    this.owned.delete(fd);
    return 0;
  }

  autoClose(fd: number, on: boolean): number {
    if (!this.isAnswerable(fd)) return EBADF;
    if (on) this.owned.add(fd);
    else this.owned.delete(fd);
    return 0;
  }

  /** What the context did: its replies, and what it owns still unanswered. */
  outcome(): SocketOutcome {
    return { replies: this.replies, unanswered: [...this.owned] };
  }

  isAnswerable(fd: number): boolean {
    return this.grant.open.isOpen(fd) && !this.replies.some((r) => r.socket === fd);
  }
}
