plugins {
    kotlin("jvm") version "2.0.0"
}

fun configure() {
    println("configured")
}
