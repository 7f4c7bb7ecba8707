import { HttpHeader } from "./header";
import { encodeUtf8 } from "../utf8";

/** What serveSys returns for a handled request. */
@fracpack
export class HttpReply {
  constructor(
    public status: u16 = 200,
    public contentType: string = "",
    public body: Uint8Array = new Uint8Array(0),
    public headers: Array<HttpHeader> = [],
  ) {}

  static bytes(contentType: string, body: Uint8Array, status: u16 = 200): HttpReply {
    return new HttpReply(status, contentType, body);
  }

  static text(text: string, contentType: string = "text/plain", status: u16 = 200): HttpReply {
    return new HttpReply(status, contentType, encodeUtf8(text));
  }

  static json(json: string, status: u16 = 200): HttpReply {
    return HttpReply.text(json, "application/json", status);
  }

  static html(html: string, status: u16 = 200): HttpReply {
    return HttpReply.text(html, "text/html", status);
  }

  /** Adds a header; returns this reply. */
  withHeader(name: string, value: string): HttpReply {
    this.headers.push(new HttpHeader(name, value));
    return this;
  }
}
