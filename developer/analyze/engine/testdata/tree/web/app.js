import { render } from './render.js';

class App {
  start() {
    render(this.view());
  }

  view() {
    return build();
  }
}

function build() {
  return new App();
}

const boot = () => build().start();
