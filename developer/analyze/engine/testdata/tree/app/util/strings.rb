require 'json'
require_relative 'base'

module Util
  class Strings
    attr_accessor :value

    def shout
      format_value.upcase
    end

    def format_value
      JSON.generate(value)
    end
  end
end
