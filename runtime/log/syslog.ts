// `{Syslog:<variant>}` headers. Facility is always `daemon` (3); the priority is
// facility × 8 + the syslog severity of the record's Severity (info when it has none).
// Each header stops before the space that separates it from the message, so a format reads
// e.g. `{Syslog:rfc5424} {Message}`:
//   rfc5424  <PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID -     (RFC 5424, no structured data)
//   rfc3164  <PRI>Mmm dd hh:mm:ss HOSTNAME TAG[PID]:               (RFC 3164, for remote syslog)
//   bsd      <PRI>Mmm dd hh:mm:ss TAG[PID]:                        (what syslog(3) sends to /dev/log)
//   pri      <PRI>
// HOSTNAME is Host, APP-NAME and TAG are Process, PROCID is ProcessId, MSGID is Channel; absent
// ones are `-` (TAG drops `[PID]` without a ProcessId). Times are UTC.

import { formatTimeStamp, type LogRecord, type Severity } from './record.js';
import { compileStrftime } from './strftime.js';

const DAEMON_FACILITY = 3;

const SYSLOG_SEVERITY: Readonly<Record<Severity, number>> = {
  debug: 7, info: 6, notice: 5, warning: 4, error: 3, critical: 2,
};

const BSD_TIME = compileStrftime('%b %e %H:%M:%S', 'LOG_BAD_FORMAT');

type SyslogHeader = (record: LogRecord) => string;

function priority(record: LogRecord): string {
  return `<${DAEMON_FACILITY * 8 + SYSLOG_SEVERITY[record.Severity ?? 'info']}>`;
}

/** Header fields are space-separated printable ASCII, so anything else becomes `_`. */
function headerField(value: string | number | undefined, maxLength: number): string {
  if (value === undefined || value === '') return '-';
  return String(value).replace(/[^\x21-\x7e]/g, '_').slice(0, maxLength);
}

function bsdTag(record: LogRecord): string {
  const tag = headerField(record.Process, 32);
  return record.ProcessId === undefined ? `${tag}:` : `${tag}[${record.ProcessId}]:`;
}

// Records from Logging always carry a TimeStamp; a bare record is stamped when rendered.
function bsdTime(record: LogRecord): string {
  return BSD_TIME(record.TimeStamp ?? new Date());
}

export const SYSLOG_HEADERS: Readonly<Record<string, SyslogHeader>> = {
  rfc5424: (record) => [
    `${priority(record)}1`,
    record.TimeStamp ? formatTimeStamp(record.TimeStamp) : '-',
    headerField(record.Host, 255),
    headerField(record.Process, 48),
    headerField(record.ProcessId, 128),
    headerField(record.Channel, 32),
    '-',
  ].join(' '),
  rfc3164: (record) => `${priority(record)}${bsdTime(record)} ${headerField(record.Host, 255)} ${bsdTag(record)}`,
  bsd: (record) => `${priority(record)}${bsdTime(record)} ${bsdTag(record)}`,
  pri: priority,
};
