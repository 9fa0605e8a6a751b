import Foundation

struct Note {
    let text: String
}

func show(_ n: Note) {
    print(n.text)
}
