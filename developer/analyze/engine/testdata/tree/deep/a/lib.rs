use std::collections::HashMap;

pub struct Cache {
    map: HashMap<String, String>,
}

impl Cache {
    pub fn new() -> Self {
        Cache { map: HashMap::new() }
    }

    pub fn get(&self, k: &str) -> Option<&String> {
        self.map.get(k)
    }
}

fn main() {
    let c = Cache::new();
    println!("{:?}", c.get("a"));
}
