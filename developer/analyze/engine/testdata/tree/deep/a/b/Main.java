package demo;

import java.util.List;

public class Main {
    public static void main(String[] args) {
        Greeter g = new Greeter();
        g.greet(List.of(args));
    }
}

class Greeter {
    void greet(List<String> names) {
        System.out.println(names);
    }
}
