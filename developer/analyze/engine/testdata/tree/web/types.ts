import { App } from './app';

export interface Options {
  verbose: boolean;
}

export class Runner {
  private opts: Options;

  constructor(opts: Options) {
    this.opts = opts;
  }

  run(app: App): void {
    log(this.opts.verbose);
  }
}

export function log(v: boolean): void {
  console.log(v);
}
