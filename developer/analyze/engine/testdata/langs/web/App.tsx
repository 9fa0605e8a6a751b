import React from "react";
import { useState } from "react";

interface Props {
  title: string;
}

export class Header extends React.Component<Props> {
  render() {
    return <h1>{format(this.props.title)}</h1>;
  }
}

function format(s: string): string {
  return s.trim();
}

export const App = ({ title }: Props) => {
  const [n, setN] = useState(0);
  return <div onClick={() => setN(n + 1)}>{format(title)}</div>;
};
