/** The part of autocannon's API the API bench uses (the package ships no types). */
declare module 'autocannon' {
  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: Request) => Request;
  }
  export interface Options {
    url: string;
    connections: number;
    duration: number;
    timeout?: number;
    requests?: Request[];
    setupClient?: (client: Client) => void;
  }
  export interface Client {
    on(event: 'body', listener: (body: Buffer) => void): this;
    on(event: 'response', listener: (statusCode: number, resBytes: number, responseTime: number) => void): this;
  }
  export interface Result {
    duration: number;
    errors: number;
    timeouts: number;
  }
  export interface Instance extends PromiseLike<Result> {
    on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): this;
    on(event: 'reqError', listener: (error: Error) => void): this;
  }
  function autocannon(options: Options): Instance;
  export default autocannon;
}
